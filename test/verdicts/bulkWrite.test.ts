import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { VerdictOutcome } from '../../src/main/judges/types'
import { insertVerdicts, writeVerdictsMany } from '../../src/main/verdicts/write'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()
const TARGETS = 8

// Text with quotes, escapes, non-Latin letters, astral characters and now and then a lone surrogate.
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '"', '\\', '\n', 'Ünïcødé — ✓', '😀', '\ud800', 'a\udc00b', 'null'),
)
const score = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1e-300, 2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY),
)
const outcome = fc.record(
  {
    target: fc.nat(TARGETS - 1),
    status: fc.constantFrom<VerdictOutcome['status']>('ok', 'na', 'error'),
    verdict: fc.oneof(fc.constant(null), text),
    score,
    reason: fc.oneof(fc.constant(null), text),
    citation: fc.oneof(fc.constant(null), text),
    problem: fc.oneof(fc.constant(null), text),
    detail: fc.option(fc.dictionary(fc.string(), fc.oneof(text, fc.double(), fc.boolean())), {
      nil: undefined,
    }),
  },
  { requiredKeys: ['target', 'status', 'verdict'] },
)
const write = fc.record({ outcomes: fc.array(outcome, { maxLength: 4 }), call: fc.boolean() })

/** Many targets, written in more rows than one statement takes (a hundred), some of them twice. */
const MANY = 160
const manyWrites = fc.array(
  fc.record({
    outcomes: fc.array(
      fc.tuple(outcome, fc.nat(MANY - 1)).map(([o, target]) => ({ ...o, target })),
      { minLength: 20, maxLength: 60 },
    ),
    call: fc.boolean(),
  }),
  { minLength: 2, maxLength: 6 },
)

type Write = { outcomes: (Omit<VerdictOutcome, 'targetId'> & { target: number })[]; call: boolean }

/** Writes them in bulk for one run and one by one for another: the rows must be the same. */
function sameRows(writes: readonly Write[], targets: number): void {
  const fx = makeFixture(tmp(), { items: targets / 4, variants: ['answer'], facts: 4 })
  const db = fx.db
  const call = Number(
    db
      .prepare("INSERT INTO run_calls (run_id, call_key, status) VALUES (?, 'k', 'done')")
      .run(fx.run('calls', [])).lastInsertRowid,
  )
  const asWrites = writes.map((w) => ({
    callId: w.call ? call : null,
    outcomes: w.outcomes.map(({ target, ...o }) => ({ ...o, targetId: fx.targets[target]!.id })),
  }))
  const bulk = fx.run('bulk', [], { kind: 'judge' })
  const oneByOne = fx.run('rows', [], { kind: 'judge' })
  writeVerdictsMany(db, bulk, asWrites)
  db.transaction(() => {
    for (const w of asWrites) insertVerdicts(db, oneByOne, w.outcomes, w.callId)
  })()
  const rows = (run: number) =>
    db
      .prepare(
        `SELECT target_id, call_id, status, verdict, score, typeof(score) AS t, reason, citation, detail
           FROM verdicts WHERE run_id = ? ORDER BY target_id`,
      )
      .all(run)
  expect(rows(bulk)).toEqual(rows(oneByOne))
  db.close()
}

describe('bulk verdict writes (migration 0150)', () => {
  it('store every row exactly as writing them one by one does', () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 6 }), (writes) => sameRows(writes, TARGETS)),
      { numRuns: 60, seed: 150 },
    )
  })

  it('store them alike when they take several statements, a target written again in a later one', () => {
    fc.assert(
      fc.property(manyWrites, (writes) => sameRows(writes, MANY)),
      { numRuns: 12, seed: 190 },
    )
  })
})
