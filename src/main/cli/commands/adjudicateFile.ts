import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { contract } from '../../../shared/contract'
import { ensureAnnotator } from '../../store/repos/annotators'
import { CliError, printResult } from '../util'
import { type LocatedTarget, locateTarget } from './locate'
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
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const planned: {
    line: number
    target: LocatedTarget
    row: z.infer<typeof DecisionLine>
    adjudicator: string
  }[] = []
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (raw.trim() === '') continue
    const at = `${file} line ${i + 1}`
    let json: unknown
    try {
      json = JSON.parse(raw)
    } catch (error) {
      throw new CliError(
        `${at}: not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing was saved`,
      )
    }
    const parsed = DecisionLine.safeParse(json)
    if (!parsed.success) throw new CliError(`${at}: ${z.prettifyError(parsed.error)}; nothing was saved`)
    const row = parsed.data
    const dataset = row.dataset ?? f.dataset
    const adjudicator = row.annotator ?? f.annotator
    if (!dataset) throw new CliError(`${at}: no "dataset" (or --dataset); nothing was saved`)
    if (!adjudicator) throw new CliError(`${at}: no "annotator" (or --annotator); nothing was saved`)
    try {
      const target = await locateTarget(s, {
        dataset,
        item: row.item,
        ...(row.variant !== undefined ? { variant: row.variant } : {}),
        ...(row.unit !== undefined ? { unit: row.unit } : {}),
        ...(row.unitText !== undefined ? { unitText: row.unitText } : {}),
      })
      planned.push({ line: i + 1, target, row, adjudicator })
    } catch (error) {
      throw new CliError(
        `${at}: ${error instanceof Error ? error.message : String(error)}; nothing was saved`,
      )
    }
  }
  const decide = s.handlers['agreement.adjudicate']
  const saved = s.db.transaction(() =>
    planned.map(({ line, target, row, adjudicator }) => {
      try {
        const input = contract['agreement.adjudicate'].input.parse({
          targetId: target.targetId,
          verdict: row.verdict,
          adjudicatorId: ensureAnnotator(s.db, adjudicator).id,
          ...(row.note !== undefined && row.note !== null ? { note: row.note } : {}),
        })
        const r = decide(input)
        // The handler is synchronous; a promise here would escape the transaction.
        if (r instanceof Promise) throw new Error('agreement.adjudicate answered asynchronously')
        return r
      } catch (error) {
        const why =
          error instanceof z.ZodError
            ? z.prettifyError(error)
            : error instanceof Error
              ? error.message
              : String(error)
        throw new CliError(`${file} line ${line}: ${why}; nothing was saved`)
      }
    }),
  )()
  const report = { file, decided: saved.length }
  printResult(Boolean(f.json), report, () => `Recorded ${report.decided} gold decisions from ${file}`)
}
