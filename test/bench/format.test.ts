import { describe, expect, it, vi } from 'vitest'
import {
  type BenchReport,
  type Figure,
  formatCompare,
  formatLine,
  formatNumber,
  parseReport,
  passes,
  ratio,
  summary,
} from './format'
import { info, infoRate } from './record'

const time = (value: number, bar: number | null = 300): Figure => ({
  part: 'metrics',
  name: 'metrics over 1M verdicts',
  value,
  unit: 'ms',
  bar,
  kind: 'max',
})
const rate = (value: number): Figure => ({
  part: 'judges',
  name: 'throughput at concurrency 8 / ideal',
  value,
  unit: '',
  bar: 0.97,
  kind: 'min',
})

const report = (figures: Figure[], commit = 'abc1234'): BenchReport => ({
  version: 1,
  commit,
  machine: '2 × test CPU',
  date: '2026-11-25T02:00:00.000Z',
  figures,
})

describe('bench figures', () => {
  it('a time passes at or under its bar and falls short over it', () => {
    expect(passes(time(300))).toBe(true)
    expect(passes(time(301))).toBe(false)
    expect(ratio(time(150))).toBe(0.5)
  })

  it('a rate passes at or over its bar', () => {
    expect(passes(rate(0.97))).toBe(true)
    expect(passes(rate(0.9))).toBe(false)
  })

  it('a figure without a bar has no ratio and no verdict', () => {
    expect(ratio(time(10, null))).toBeNull()
    expect(passes(time(10, null))).toBeNull()
    expect(formatLine(time(10, null))).toContain('(no bar)')
    expect(formatLine(time(10, null))).not.toMatch(/pass|FALLS SHORT/)
  })

  it('a line shows the value, the bar, the ratio and the verdict', () => {
    const line = formatLine(time(412))
    expect(line).toContain('metrics over 1M verdicts')
    expect(line).toContain('412 ms')
    expect(line).toContain('bar ≤ 300 ms')
    expect(line).toContain('1.37×')
    expect(line).toContain('FALLS SHORT')
    expect(formatLine(rate(0.985))).toMatch(/bar ≥ 0\.97 .* 1\.02× +pass/)
  })

  it('numbers keep about three significant digits', () => {
    expect(formatNumber(1234567)).toBe('1,234,567')
    expect(formatNumber(412.4)).toBe('412')
    expect(formatNumber(16.74)).toBe('16.7')
    expect(formatNumber(4.567)).toBe('4.57')
    expect(formatNumber(0.01234)).toBe('0.012')
  })

  it('the summary names the figures that fall short', () => {
    expect(summary([time(100), rate(0.99)])).toBe('all 2 bars met (2 figures)')
    expect(summary([time(400), rate(0.99), time(1, null)])).toBe(
      '1 of 2 bars met; short: metrics/metrics over 1M verdicts',
    )
  })
})

describe('comparing two bench files', () => {
  it('reads back what --json writes and refuses other files with the file name', () => {
    const r = report([time(412)])
    expect(parseReport(JSON.stringify(r), 'a.json')).toEqual(r)
    expect(() => parseReport('not json', 'a.json')).toThrow(/a\.json is not JSON/)
    expect(() => parseReport('{"version": 2}', 'b.json')).toThrow(/b\.json is not a bench report/)
  })

  it('shows each figure before and after, which way it moved, and a crossed bar', () => {
    const lines = formatCompare(report([time(412), rate(0.95)]), report([time(206), rate(0.98)], 'def5678'))
    expect(lines[0]).toContain('abc1234')
    expect(lines[1]).toContain('def5678')
    const metrics = lines.find((l) => l.startsWith('metrics/'))!
    expect(metrics).toMatch(/412 ms → +206 ms +0\.50× better; now meets its bar/)
    const judges = lines.find((l) => l.startsWith('judges/'))!
    expect(judges).toMatch(/1\.03× better; now meets its bar/)
  })

  it('an information line that is a rate or a ratio reads higher as better', () => {
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const a = infoRate('import 100k items', 1055, 'items/s')
    const b = infoRate('import 100k items', 1217, 'items/s')
    const t = info('RSS after the import', 958, 'MB')
    spy.mockRestore()
    expect(formatCompare(report([a]), report([b]))[2]).toMatch(/1\.15× better$/)
    expect(formatCompare(report([t]), report([{ ...t, value: 1000 }]))[2]).toMatch(/1\.04× worse$/)
  })

  it('a slower time reads as worse, and figures on one side only are listed', () => {
    const lines = formatCompare(report([time(100)]), report([time(200, 300), rate(0.99)]))
    expect(lines.find((l) => l.startsWith('metrics/'))).toMatch(/2\.00× worse$/)
    expect(lines.find((l) => l.startsWith('judges/'))).toContain('only in b')
    expect(formatCompare(report([time(200)]), report([time(201)]))[2]).toMatch(/same$/)
  })
})
