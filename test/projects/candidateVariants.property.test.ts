import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { readTargetBlockParts } from '../../src/main/metrics/targetBlocks'
import { candidateVariants } from '../../src/main/projects/candidateVariants'
import { variantCodes } from '../../src/main/projects/variantCodes'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const NAMES = ['answer', 'poor', "it's ungrounded", 'short'] as const

/** Items of two datasets side by side (their ids interleaved), each with its candidates' variants. */
const items = fc.array(
  fc.record({
    second: fc.boolean(),
    variants: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    facts: fc.integer({ min: 0, max: 2 }),
  }),
  { minLength: 1, maxLength: 8 },
)

describe("the dashboard's variant of each target's candidate", () => {
  it('is the candidate’s own, coded in the order of each variant’s first candidate, with another dataset’s items among them', () => {
    fc.assert(
      fc.property(items, (spec) => {
        const ws = Workspace.open(freshWorkspaceFile(join(tmp(), 'w.factlab')))
        try {
          const db = ws.db
          const one = createDataset(db, { name: 'one', labelSchema: FAAF_SCHEMA })
          const two = createDataset(db, { name: 'two', labelSchema: FAAF_SCHEMA })
          spec.forEach((s, i) => {
            const item = ws.content.insertItem(
              (s.second ? two : one).id,
              { extId: `q${i}`, question: `Q${i}?`, reference: `Ref ${i}.` },
              i,
            )
            for (const v of s.variants) ws.content.insertCandidate(item, { variant: v, text: `A ${i} ${v}` })
            for (let f = 0; f < s.facts; f++)
              ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${i}.${f}` })
          })
          for (const ds of [one, two]) {
            const parts = readTargetBlockParts(db, ds.id) ?? []
            const got = candidateVariants(db, ds.id, parts)
            const rows = db
              .prepare(
                'SELECT c.id, c.variant FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY c.id',
              )
              .raw()
              .all(ds.id) as [number, string][]
            expect(got.names).toEqual(variantCodes(rows).names)
            const variantOf = new Map(rows)
            for (const part of parts)
              for (let i = 0; i < part.n; i++) {
                if (part.dataset !== null && part.dataset[i] !== ds.id) continue
                const c = part.candidate[i]!
                const code = c - got.lo
                const name = code >= 0 && code < got.code.length ? got.names[got.code[code]!] : undefined
                expect(name).toBe(variantOf.get(c))
              }
          }
        } finally {
          ws.close()
        }
      }),
      { numRuns: 40 },
    )
  })
})
