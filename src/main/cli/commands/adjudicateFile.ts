import { z } from 'zod'
import { contract } from '../../../shared/contract'
import { countOf } from '../../../shared/plural'
import { printResult } from '../util'
import { verdictFor } from './locate'
import { applyLines, linePeople, lineSchema, locateLines, refuseRepeatedTargets } from './locatedLines'
import type { Session } from './session'

/** One line of `adjudicate --file`: the locators of `label --file`, the gold verdict and a note. */
const DecisionLine = lineSchema({
  verdict: z.union([z.string().min(1), z.number().transform(String)]),
  note: z.string().nullable().optional(),
})

export interface DecisionFlags {
  dataset?: string
  annotator?: string
  json?: boolean
}

/**
 * Every line is read and located before anything is written, then all decisions are recorded
 * in one transaction: a bad line (named by its number) leaves every gold as it was.
 */
export async function adjudicateFile(s: Session, file: string, f: DecisionFlags): Promise<void> {
  const planned = await locateLines(s, file, DecisionLine, f)
  // One gold per target, whoever decides it.
  refuseRepeatedTargets(file, planned, false)
  // Names are checked before the first decision is recorded, as `label --file` does.
  const idOf = linePeople(s, file, planned, s.mayAddAnnotator)
  const decide = s.handlers['agreement.adjudicate']
  const saved = applyLines(s, file, planned, ({ target, row, annotator: adjudicator }) =>
    decide(
      contract['agreement.adjudicate'].input.parse({
        targetId: target.targetId,
        verdict: verdictFor(s, target, row.verdict),
        adjudicatorId: idOf(adjudicator),
        ...(row.note !== undefined && row.note !== null ? { note: row.note } : {}),
      }),
    ),
  )
  const report = { file, decided: saved.length }
  printResult(
    Boolean(f.json),
    report,
    () => `Recorded ${countOf(report.decided, 'gold decision')} from ${file}`,
  )
}
