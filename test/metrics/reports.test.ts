import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { renderReport, toCsv, toHtml, toMarkdown } from '../../src/main/reports'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

function metrics() {
  const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
  fx.labelAll('ana', ['true', 'false', 'true', 'false'])
  fx.run('m, "quoted" <b>', ['true', 'true', 'true', 'false'])
  fx.run('empty', ['NA', 'NA', 'NA', 'NA'])
  return computeDatasetMetrics(fx.db, fx.datasetId)
}

describe('reports', () => {
  it('quote CSV cells that need it and leave undefined figures empty', () => {
    const csv = toCsv(metrics())
    const lines = csv.trim().split('\n')
    const row = lines.find((l) => l.includes('quoted') && l.includes(',all,'))!
    expect(row).toContain('"m, ""quoted"" <b> · faaf-tf (#1)"')
    const empty = lines.find((l) => l.startsWith('judge,empty') && l.includes(',all,'))!
    const cells = empty.split(',')
    const head = lines[0]!.split(',')
    expect(cells[head.indexOf('error_rate')]).toBe('')
    expect(cells[head.indexOf('na_rate')]).toBe('1')
  })

  it('escape names in HTML and say "not defined" instead of NaN', () => {
    const m = metrics()
    const html = toHtml(m)
    expect(html).not.toContain('<b>')
    expect(html).toContain('&#60;b&#62;')
    expect(html).toContain('not defined')
    expect(html).not.toMatch(/NaN/)
    const md = toMarkdown(m)
    expect(md).toContain('| m, "quoted" &lt;b&gt; · faaf-tf (#1) | 4 |')
    expect(md).not.toMatch(/NaN/)
  })

  it('name downloads after the dataset with the right type', () => {
    const m = metrics()
    expect(renderReport(m, 'csv')).toMatchObject({ fileName: 'demo-metrics.csv', mime: 'text/csv' })
    expect(JSON.parse(renderReport(m, 'json').text).judges).toHaveLength(2)
  })
})
