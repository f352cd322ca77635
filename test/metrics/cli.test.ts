import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withItemLevel } from '../../src/main/metrics/items'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport } from '../../src/main/reports'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

function workspace(): { file: string; dir: string; expected: ReturnType<typeof toJsonReport> } {
  const dir = tmp()
  const fx = makeFixture(dir, { items: 3, variants: ['answer', 'poor_answer'], facts: 2 })
  fx.labelAll('ana', [
    'true',
    'false',
    'true',
    'true',
    'false',
    'false',
    'true',
    'true',
    'false',
    'true',
    'true',
    'false',
  ])
  fx.labelAll('bob', [
    'true',
    'false',
    'true',
    'false',
    'false',
    'false',
    'true',
    'true',
    'false',
    'true',
    'true',
    'false',
  ])
  fx.run(
    'gpt-x',
    ['true', 'true', 'true', 'true', 'false', 'NA', 'true', 'false', 'false', 'true', 'ERR', 'false'],
    {
      calls: [{ promptTokens: 500, completionTokens: 40, cost: 0.002, latencyMs: 300 }],
    },
  )
  fx.run('lexical', [
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
    'true',
  ])
  const expected = toJsonReport(withItemLevel(fx.db, computeDatasetMetrics(fx.db, fx.datasetId)))
  fx.db.close()
  return { file: join(dir, 'w.factlab'), dir, expected }
}

describe('factlab metrics', () => {
  it('prints the documented JSON with the same numbers as the service', async () => {
    const { file, expected } = workspace()
    const r = await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--json'])
    expect(r.code).toBe(0)
    const json = JSON.parse(r.out) as typeof expected
    expect(json).toEqual(expected)
    expect(json.judges.map((j) => j.model)).toEqual(['gpt-x', 'lexical'])
    expect(json.judges[0]).toMatchObject({ na: 1, errors: 1, calls: 1, prompt_tokens: 500 })
    expect(json.agreement.cohen_pairs[0]).toMatchObject({ a: 'ana', b: 'bob', n: 12 })
    expect(json.humans.map((h) => h.annotator)).toEqual(['ana', 'bob'])
  })

  it('writes a self-contained HTML page with its charts, CSV, and Markdown with SVG charts beside it', async () => {
    const { file, dir } = workspace()
    const html = join(dir, 'out', 'report.html')
    expect(
      (await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--format', 'html', '--out', html]))
        .code,
    ).toBe(0)
    const page = readFileSync(html, 'utf8')
    expect(page).toContain('<svg')
    expect(page).toContain('gpt-x')
    expect(page).not.toMatch(/<script|src="http|href="http/)
    const csv = join(dir, 'out', 'report.csv')
    expect(
      (await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--format', 'csv', '--out', csv]))
        .code,
    ).toBe(0)
    const lines = readFileSync(csv, 'utf8').trim().split('\n')
    expect(lines[0]).toMatch(/^kind,name,run,variant,n,/)
    // one row per judge and per annotator, each followed by its variants
    expect(lines.filter((l) => l.includes(',all,'))).toHaveLength(4)
    const md = join(dir, 'out', 'report.md')
    expect(
      (await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--format', 'md', '--out', md])).code,
    ).toBe(0)
    expect(readFileSync(md, 'utf8')).toContain('![Error rate by variant](report-by-variant.svg)')
    expect(existsSync(join(dir, 'out', 'report-by-variant.svg'))).toBe(true)
    expect(readFileSync(join(dir, 'out', 'report-cost-error.svg'), 'utf8')).toMatch(/^<svg[^>]+xmlns=/)
  })

  it('prints the Markdown report when no format is asked for', async () => {
    const { file } = workspace()
    const r = await cli(['metrics', '--workspace', file, '--dataset', 'demo'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^# FactLab metrics: demo/)
    expect(r.out).toContain('## Judges against gold')
  })

  it('refuses bad input with a clear message and the documented exit codes', async () => {
    const { file } = workspace()
    const unknown = await cli(['metrics', '--workspace', file, '--dataset', 'nope', '--json'])
    expect(unknown.code).toBe(1)
    expect(unknown.err).toMatch(/No dataset named "nope"/)
    expect(
      (await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--format', 'pdf', '--out', 'x']))
        .code,
    ).toBe(2)
    expect((await cli(['metrics', '--workspace', file, '--dataset', 'demo', '--format', 'md'])).code).toBe(2)
    expect((await cli(['metrics', '--dataset', 'demo'])).code).toBe(2)
  })
})
