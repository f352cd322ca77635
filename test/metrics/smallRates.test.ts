import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toJsonReport, toMarkdown } from '../../src/main/reports'
import { compareRows } from '../../src/renderer/src/views/compare/rowOrder'
import { rateNote } from '../../src/shared/smallSample'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

describe('error rates over too few targets', () => {
  it('are marked, and not ranked above rates that rest on enough targets', () => {
    // 3 items × 2 variants × 4 facts = 24 targets.
    const fx = makeFixture(tmp(), { items: 3, variants: ['answer', 'poor'], facts: 4 })
    const gold = fx.targets.map((_, i) => (i % 3 === 0 ? 'false' : 'true'))
    fx.labelAll('ana', gold)
    fx.labelAll('ben', gold)
    // dora labels two targets, both as the others do: 0.0% over n = 2.
    fx.labelAll('dora', [gold[0]!, gold[1]!])
    // The judge gets one of the 24 wrong: 4.2% over n = 24.
    const judged = gold.map((g, i) => (i === 5 ? (g === 'true' ? 'false' : 'true') : g))
    const run = fx.run('judge', judged)
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const dora = m.humans.find((h) => h.annotator === 'dora')!
    const judge = m.judges.find((j) => j.runId === run)!
    expect(dora).toMatchObject({ n: 2, errorRate: 0 })
    expect(judge.n).toBe(24)

    // What `metrics` prints (the Markdown report): dora's rates carry the mark and their
    // interval's method, the judge's do not carry the mark.
    const md = toMarkdown(m)
    const doraRow = md.split('\n').find((l) => l.startsWith('| dora |'))!
    expect(doraRow).toMatch(/0\.0% \[0\.0–\d+\.\d%\] \(Wilson\) · too few targets \(n=2\)/)
    const judgeRow = md.split('\n').find((l) => l.startsWith(`| ${judge.label} |`))!
    expect(judgeRow).not.toContain('too few targets')
    // Accuracy is the same rate read the other way: marked beside it, not a bare 100.0%.
    const cells = (row: string) => row.split(' | ').map((c) => c.replace(/^\| | \|$/g, ''))
    expect(cells(doraRow)[3]).toBe('100.0% · too few targets (n=2)')
    expect(cells(judgeRow)[5]).toBe('95.8%')
    // Error rate by variant: the people's rows carry the mark as the judges' do.
    const byVariant = md.slice(md.indexOf('## Error rate by variant'))
    const doraByVariant = byVariant.split('\n').find((l) => l.startsWith('| dora (human) |'))!
    expect(doraByVariant).toMatch(/\(Wilson, n \d\) · too few targets \(n=\d\)/)
    const json = toJsonReport(m)
    expect(json.humans.find((h) => h.annotator === 'dora')?.too_few_targets).toBe(true)
    expect(json.judges[0]?.too_few_targets).toBe(false)

    // Compare's order by error rate, best first: the judge's 4.2% over 24 before dora's 0.0% over 2,
    // and sorted worst first, dora still after the judge.
    const rows = [
      { name: 'dora', value: dora.errorRate, small: rateNote(dora.n) !== '' },
      { name: 'judge', value: judge.errorRate, small: rateNote(judge.n) !== '' },
    ]
    for (const desc of [false, true])
      expect(rows.sort((a, b) => compareRows(a, b, { figure: true, desc })).map((r) => r.name)).toEqual([
        'judge',
        'dora',
      ])
    // A column that ranks nothing (the name) keeps its plain order.
    expect(
      compareRows(
        { value: 'dora', small: true },
        { value: 'judge', small: false },
        { figure: false, desc: false },
      ),
    ).toBeLessThan(0)
    fx.db.close()
  })
})
