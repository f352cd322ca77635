import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toMarkdown } from '../../src/main/reports'
import { costPoints } from '../../src/shared/charts/costError'
import { humanRowLabel } from '../../src/shared/humanRowLabel'
import { toJsonReport } from '../../src/shared/metricsJson'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

describe('a dataset’s own reference labels go by one name', () => {
  it('"<name> (reference labels)" in the reports as in Compare; people stay "(human)"', () => {
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 2 })
    fx.labelAll('ana', ['true', 'false', 'true', 'true'])
    fx.labelAll('bob', ['true', 'false', 'false', 'true'])
    fx.labelAll('wikievalfacts', ['true', 'false', 'true', 'false'])
    fx.db.prepare("UPDATE annotators SET kind = 'source' WHERE name = 'wikievalfacts'").run()
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const md = toMarkdown(m)
    expect(md).toContain('| wikievalfacts (reference labels) |')
    expect(md).toContain('| ana (human) |')
    expect(md).not.toContain('wikievalfacts (human)')
    const json = toJsonReport(m)
    expect(json.humans.find((h) => h.annotator === 'wikievalfacts')?.source).toBe(true)
    // Compare's table names its rows with the same function.
    expect(humanRowLabel({ annotator: 'wikievalfacts', source: true })).toBe(
      'wikievalfacts (reference labels)',
    )
    expect(
      costPoints({
        ...json,
        humans: json.humans.map((h) => ({ ...h, cost: 1, cost_per_1000: 10, error_rate: 0.1 })),
      }).map((p) => p.label),
    ).toContain('wikievalfacts (reference labels)')
    fx.db.close()
  })
})
