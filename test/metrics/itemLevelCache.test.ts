import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LabelWriter } from '../../src/main/labels/labels'
import { computeItemLevel } from '../../src/main/metrics/items'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

/**
 * Item-level figures are kept per workspace version: after any label or verdict edit through the
 * app's connection, what it returns must be what a fresh connection computes from the rows.
 */
const dir = tmpDirs()

describe('item-level figures kept between calls', () => {
  it('equal a rebuild from the rows after random label and verdict edits', () => {
    const d = dir()
    const f = makeFixture(d, { items: 4, variants: ['a', 'b'], facts: 3 })
    const values = ['true', 'false', 'not_clear']
    f.labelAll(
      'ana',
      f.targets.map((_, i) => values[i % 3]!),
    )
    f.labelAll(
      'bob',
      f.targets.map((_, i) => values[(i * 5) % 3]!),
    )
    const runA = f.run(
      'm1',
      f.targets.map((_, i) => values[(i * 7) % 3]!),
    )
    f.run(
      'm2',
      f.targets.map((_, i) => (i % 4 === 0 ? 'NA' : values[(i * 2) % 3]!)),
    )
    const labels = new LabelWriter(f.db)
    const edit = fc.record({
      what: fc.constantFrom('label', 'clear', 'verdict'),
      target: fc.nat({ max: f.targets.length - 1 }),
      value: fc.nat({ max: 2 }),
      who: fc.constantFrom('ana', 'bob', 'cy'),
    })
    const opts = { seed: 5, replicates: 60 }
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        computeItemLevel(f.db, f.datasetId, opts) // kept now
        for (const e of edits) {
          const targetId = f.targets[e.target]!.id
          if (e.what === 'verdict')
            f.db
              .prepare("UPDATE verdicts SET verdict = ?, status = 'ok' WHERE run_id = ? AND target_id = ?")
              .run(values[e.value]!, runA, targetId)
          else
            labels.save({
              targetId,
              annotatorId: ensureAnnotator(f.db, e.who).id,
              verdict: e.what === 'clear' ? null : values[e.value]!,
            })
        }
        const kept = computeItemLevel(f.db, f.datasetId, opts)
        const fresh = openWorkspace(`${d}/w.factlab`, { skipQuickCheck: true })
        try {
          expect(kept).toStrictEqual(computeItemLevel(fresh, f.datasetId, opts))
        } finally {
          fresh.close()
        }
      }),
      { numRuns: 25 },
    )
    f.db.close()
  })
})
