import { describe, expect, it } from 'vitest'
import { perResponseRows } from '../../src/main/export/perResponse'
import { DCR_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()

describe('per-response figures for the exports', () => {
  it("DCR: each candidate's marks and score from the human labels and from a run", () => {
    // Two items, one candidate each, three units per candidate.
    const fx = makeFixture(tmp(), { items: 2, variants: ['answer'], facts: 3, schema: DCR_SCHEMA })
    fx.labelAll('ana', ['consistent', 'inconsistent', 'consistent', 'consistent', 'consistent', 'consistent'])
    const run = fx.run(
      'judge-x',
      ['consistent', 'consistent', 'inconsistent', 'inconsistent', 'NA', 'consistent'],
      {
        method: 'dcr',
      },
    )
    const human = perResponseRows(fx.db, fx.datasetId, null)!
    // Item 0: +1 −1 +1 → Z = 1/3, score (1/3 + 1) / 2 = 2/3. Item 1: all consistent → Z = 1, score 1.
    expect(human).toHaveLength(2)
    expect(human[0]).toMatchObject({
      item_id: 'q0',
      variant: 'answer',
      source: 'human',
      consistent: 2,
      inconsistent: 1,
    })
    expect(human[0]!.z).toBeCloseTo(1 / 3, 12)
    expect(human[0]!.score).toBeCloseTo(2 / 3, 12)
    expect(human[1]).toMatchObject({ consistent: 3, inconsistent: 0, z: 1, score: 1 })
    // The run: item 1 has an N/A sentence. The judge gives no score then (Eq. 3 divides by every
    // sentence), so neither does the export: it was 0.5 from the two marked ones.
    const judged = perResponseRows(fx.db, fx.datasetId, run)!
    expect(judged[0]).toMatchObject({ source: `run:${run}`, consistent: 2, inconsistent: 1 })
    expect(judged[1]).toMatchObject({ consistent: 1, inconsistent: 1, unmarked: 1, z: null, score: null })
    fx.db.close()
  })
})
