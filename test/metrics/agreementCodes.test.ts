import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { agreementFromLabels } from '../../src/main/metrics/agreementCodes'
import { agreementFromMatrix } from '../../src/main/metrics/agreementService'
import { ratingsMatrix } from '../../src/main/metrics/humans'
import { loadTargets } from '../../src/main/metrics/load'
import { listAnnotators } from '../../src/main/store/repos/annotators'
import { getDataset } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

const label = fc.constantFrom<string | null>('true', 'false', 'not_clear', null, null)
// Names out of id order, so columns follow names rather than ids.
const annotators = ['cy', 'ana', 'Bob', 'dee']

describe('agreementFromLabels', () => {
  it('gives exactly the figures of the string matrix, overall, per variant and per pair', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(label, { minLength: 9, maxLength: 9 }), { minLength: 1, maxLength: 4 }),
        (byAnnotator) => {
          const fx = makeFixture(tmp(), {
            items: 3,
            variants: ['answer', 'poor_answer', 'ungrounded'],
            facts: 1,
          })
          for (const [a, verdicts] of byAnnotator.entries()) fx.labelAll(annotators[a]!, verdicts)
          const schema = getDataset(fx.db, fx.datasetId).labelSchema
          const t = loadTargets(fx.db, fx.datasetId, schema)
          const names = new Map(listAnnotators(fx.db).map((a) => [a.id, a.name]))
          expect(agreementFromLabels(t, names)).toEqual(
            agreementFromMatrix(ratingsMatrix(t, names), false, t.labels.length),
          )
          fx.db.close()
        },
      ),
      { numRuns: 40 },
    )
  })
})
