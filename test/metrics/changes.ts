import fc from 'fast-check'
import { expect } from 'vitest'
import { setGold } from '../../src/main/labels/gold'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import type { Fixture } from './fixture'

/**
 * Changes a view's snapshot must follow, for the property tests of the work done beside the main
 * thread (compareInBackground, snapshotInBackground): labels, stored gold and judge runs over the
 * first `TARGETS` targets of a fixture of 4 items × 2 variants × 2 facts.
 */
export const TARGETS = 16

const verdict = fc.constantFrom<string | null>('true', 'false', 'not_clear', null)

export const change = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('label' as const),
      who: fc.constantFrom('ana', 'bob', 'cy'),
      target: fc.nat(TARGETS - 1),
      verdict: fc.constantFrom('true', 'false', 'not_clear'),
    }),
  },
  fc.record({
    kind: fc.constant('gold' as const),
    target: fc.nat(TARGETS - 1),
    verdict: fc.constantFrom('true', 'false'),
  }),
  fc.record({
    kind: fc.constant('run' as const),
    verdicts: fc.array(verdict, { minLength: TARGETS, maxLength: TARGETS }),
  }),
)
export type Change = typeof change extends fc.Arbitrary<infer T> ? T : never

/** Applies a change; `runs.n` numbers the runs added. */
export function apply(fx: Fixture, c: Change, runs: { n: number }): void {
  if (c.kind === 'label') {
    ensureAnnotator(fx.db, c.who)
    fx.label(c.who, c.target, c.verdict)
  } else if (c.kind === 'gold')
    setGold(fx.db, {
      targetId: fx.targets[c.target]!.id,
      verdict: c.verdict,
      source: 'adjudicated',
      adjudicatorId: ensureAnnotator(fx.db, 'judy').id,
    })
  else fx.run(`m${runs.n++}`, c.verdicts)
}

/**
 * Holds what the views are served on the fixture's connection equal to what a second connection,
 * which never worked anything out beside its main thread, serves; then closes both.
 */
export function expectServedAsElsewhere(fx: Fixture, served: (db: Db, datasetId: number) => unknown): void {
  const got = served(fx.db, fx.datasetId)
  const other = openWorkspace(fx.db.name, { skipQuickCheck: true })
  try {
    expect(JSON.stringify(got)).toBe(JSON.stringify(served(other, fx.datasetId)))
  } finally {
    other.close()
    fx.db.close()
  }
}
