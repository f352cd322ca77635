import { z } from 'zod'
import { contract } from '../../../shared/contract'
import { ensureAnnotator } from '../../store/repos/annotators'
import { printResult } from '../util'
import { applyLines, locateLines } from './locatedLines'
import type { Session } from './session'

/** One line of `adjudicate --file`: the locators of `label --file`, the gold verdict and a note. */
const DecisionLine = z
  .strictObject({
    dataset: z.string().min(1).optional(),
    item: z.string().min(1),
    variant: z.string().min(1).optional(),
    /** 1-based, as `factlab units list` numbers units. */
    unit: z.number().int().positive().optional(),
    unitText: z.string().min(1).optional(),
    verdict: z.union([z.string().min(1), z.number().transform(String)]),
    note: z.string().nullable().optional(),
    annotator: z.string().trim().min(1).optional(),
  })
  .refine((l) => (l.unit === undefined) !== (l.unitText === undefined), {
    error: 'give exactly one of "unit" and "unitText"',
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
  const decide = s.handlers['agreement.adjudicate']
  const saved = applyLines(s, file, planned, ({ target, row, annotator: adjudicator }) =>
    decide(
      contract['agreement.adjudicate'].input.parse({
        targetId: target.targetId,
        verdict: row.verdict,
        adjudicatorId: ensureAnnotator(s.db, adjudicator).id,
        ...(row.note !== undefined && row.note !== null ? { note: row.note } : {}),
      }),
    ),
  )
  const report = { file, decided: saved.length }
  printResult(Boolean(f.json), report, () => `Recorded ${report.decided} gold decisions from ${file}`)
}
