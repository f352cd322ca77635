import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ST_OK } from '../../src/main/metrics/load'
import { labelNext } from '../../src/main/metrics/queries'
import { datasetSnapshot } from '../../src/main/metrics/snapshot'
import { NONE, UNSUPPORTED } from '../../src/main/metrics/stats/binary'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/** The list spelled out: every target without gold that a judge answered, sorted whole, then cut. */
function reference(db: Parameters<typeof labelNext>[0], datasetId: number, limit: number) {
  const { t, runs, columns } = datasetSnapshot(db, datasetId)
  const rows = []
  for (let i = 0; i < t.ids.length; i++) {
    if (t.goldBin[i] !== NONE) continue
    let votes = 0
    let unsupported = 0
    for (const r of runs) {
      const run = columns.get(r.id)!
      if (run.status[i] !== ST_OK) continue
      votes++
      if (run.bin[i] === UNSUPPORTED) unsupported++
    }
    if (votes === 0) continue
    const p = unsupported / votes
    rows.push({ i, targetId: t.ids[i]!, judges: votes, unsupportedShare: p, disagreement: 4 * p * (1 - p) })
  }
  rows.sort((a, b) => b.disagreement - a.disagreement || b.judges - a.judges || a.i - b.i)
  return rows.slice(0, limit).map(({ i: _, ...row }) => row)
}

const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', null)

describe('label next', () => {
  it('lists the targets without gold where the judges split most, as sorting them all would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(15), fc.constantFrom('ana', 'bob', 'cy'), verdict), { maxLength: 30 }),
        fc.array(fc.array(verdict, { minLength: 16, maxLength: 16 }), { maxLength: 5 }),
        fc.integer({ min: 1, max: 20 }),
        (labels, runs, limit) => {
          const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 2 })
          for (const [k, who, v] of labels) if (v !== null) fx.label(who, k, v)
          for (const [r, vs] of runs.entries()) fx.run(`m${r}`, vs)
          const got = labelNext(fx.db, fx.datasetId, limit)
          expect(
            got.map(({ targetId, judges, unsupportedShare, disagreement }) => ({
              targetId,
              judges,
              unsupportedShare,
              disagreement,
            })),
          ).toEqual(reference(fx.db, fx.datasetId, limit))
          fx.db.close()
        },
      ),
      { seed: 5, numRuns: 80 },
    )
  })
})
