import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readTargetRows, targetRowsByRow } from '../../src/main/metrics/targetRows'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/**
 * The views' targets from the stored target blocks take each target's variant from the
 * candidates of the targets' items alone. Whatever the rows say (items of two datasets
 * interleaved, variants renamed after the blocks were stored, a target pointing at another
 * item's or another dataset's candidate), they give what reading the rows gives.
 */
const op = fc.oneof(
  fc.record({ kind: fc.constant('other' as const), variant: fc.constantFrom('answer', 'zeta', 'eta') }),
  fc.record({
    kind: fc.constant('rename' as const),
    candidate: fc.nat(40),
    variant: fc.constantFrom('answer', 'poor_answer', 'zeta', 'renamed'),
  }),
  fc.record({ kind: fc.constant('repoint' as const), target: fc.nat(60), candidate: fc.nat(40) }),
  fc.record({ kind: fc.constant('reitem' as const), target: fc.nat(60), item: fc.nat(20) }),
  fc.record({ kind: fc.constant('look' as const) }),
)

describe('targets from the target blocks', () => {
  it('are the targets the rows give, with their candidates’ variants', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const fx = makeFixture(tmp(), { items: 3, variants: ['poor_answer', 'answer'], facts: 2 })
        const db = fx.db
        const other = createDataset(db, { name: 'other', labelSchema: FAAF_SCHEMA }).id
        const content = new ContentWriter(db)
        const ids = (table: string) =>
          db.prepare(`SELECT id FROM ${table} ORDER BY id`).pluck().all() as number[]
        const pick = (table: string, n: number) => {
          const all = ids(table)
          return all[n % all.length]!
        }
        const same = () => {
          for (const datasetId of [fx.datasetId, other])
            for (const controls of [false, true])
              expect(readTargetRows(db, datasetId, controls)).toEqual(
                targetRowsByRow(db, datasetId, controls),
              )
        }
        for (const o of ops) {
          try {
            if (o.kind === 'other') {
              const n = db.prepare('SELECT COUNT(*) FROM items').pluck().get() as number
              const item = content.insertItem(other, { extId: `o${n}`, question: 'Q?', reference: 'R.' }, n)
              content.insertCandidate(item, { variant: o.variant, text: 'C.' })
              content.insertUnit(item, { kind: 'fact', text: 'F.' })
              // And one of the dataset itself after it, so the items of both interleave.
              const own = content.insertItem(
                fx.datasetId,
                { extId: `d${n}`, question: 'Q?', reference: 'R.' },
                n,
              )
              content.insertCandidate(own, { variant: 'answer', text: 'C.' })
              content.insertUnit(own, { kind: 'fact', text: 'F.' })
            } else if (o.kind === 'rename')
              db.prepare('UPDATE candidates SET variant = ? WHERE id = ?').run(
                o.variant,
                pick('candidates', o.candidate),
              )
            else if (o.kind === 'repoint')
              db.prepare('UPDATE targets SET candidate_id = ? WHERE id = ?').run(
                pick('candidates', o.candidate),
                pick('targets', o.target),
              )
            else if (o.kind === 'reitem')
              db.prepare('UPDATE targets SET item_id = ? WHERE id = ?').run(
                pick('items', o.item),
                pick('targets', o.target),
              )
            else same()
          } catch {
            // A change the schema refuses (a variant twice in one item) changes nothing.
          }
        }
        same()
        db.close()
      }),
      { numRuns: 40 },
    )
  })
})
