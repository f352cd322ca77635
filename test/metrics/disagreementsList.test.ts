import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ST_OK } from '../../src/main/metrics/load'
import { disagreements } from '../../src/main/metrics/queries'
import { datasetSnapshot } from '../../src/main/metrics/snapshot'
import { NONE } from '../../src/main/metrics/stats/binary'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

type Opts = { runId: number | null; variant: string | null; limit: number; reveals?: (id: number) => boolean }

/** The list spelled out: every target, every run in id order, every hit kept, then cut. */
function reference(db: Parameters<typeof disagreements>[0], datasetId: number, o: Opts) {
  const { t, runs, columns } = datasetSnapshot(db, datasetId)
  const hits: { targetId: number; runId: number }[] = []
  const chosen = runs.filter((r) => o.runId === null || r.id === o.runId).sort((a, b) => a.id - b.id)
  for (let i = 0; i < t.ids.length; i++) {
    if (o.variant !== null && t.variants[t.variant[i]!] !== o.variant) continue
    if (o.reveals && !o.reveals(t.ids[i]!)) continue
    for (const r of chosen) {
      const run = columns.get(r.id)!
      if (t.goldBin[i] !== NONE && run.status[i] === ST_OK && run.bin[i] !== t.goldBin[i])
        hits.push({ targetId: t.ids[i]!, runId: r.id })
    }
  }
  return { total: hits.length, rows: hits.slice(0, o.limit) }
}

const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', null)

describe('the disagreements list', () => {
  it('counts and lists what the spelled-out walk finds, with every filter and a blind gate', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(15), fc.constantFrom('ana', 'bob', 'cy'), verdict), {
          minLength: 10,
          maxLength: 40,
        }),
        fc.array(fc.array(verdict, { minLength: 16, maxLength: 16 }), { minLength: 1, maxLength: 4 }),
        // Several queries of one workspace: a workspace costs far more to build than a query.
        fc.array(
          fc.record({
            run: fc.option(fc.nat(4), { nil: null }),
            variant: fc.option(fc.constantFrom('answer', 'poor_answer', 'missing'), { nil: null }),
            limit: fc.integer({ min: 1, max: 30 }),
            hidden: fc.option(fc.array(fc.nat(15)), { nil: null }),
          }),
          { minLength: 3, maxLength: 3 },
        ),
        (labels, runs, queries) => {
          const fx = makeFixture(tmp(), { items: 4, variants: ['answer', 'poor_answer'], facts: 2 })
          for (const [k, who, v] of labels) if (v !== null) fx.label(who, k, v)
          const runIds = runs.map((vs, r) => fx.run(`m${r}`, vs))
          for (const o of queries) {
            const hidden = o.hidden ? new Set(o.hidden.map((k) => fx.targets[k]!.id)) : null
            const opts: Opts = {
              runId: o.run === null ? null : (runIds[o.run] ?? 9999),
              variant: o.variant,
              limit: o.limit,
              reveals: hidden ? (id) => !hidden.has(id) : undefined,
            }
            const got = disagreements(fx.db, fx.datasetId, opts)
            const want = reference(fx.db, fx.datasetId, opts)
            expect({
              total: got.total,
              rows: got.rows.map(({ targetId, runId }) => ({ targetId, runId })),
            }).toEqual(want)
          }
          fx.db.close()
        },
      ),
      { seed: 23, numRuns: 40 },
    )
  })
})
