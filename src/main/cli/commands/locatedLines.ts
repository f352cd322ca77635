import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { ServiceError, unavailableError } from '../../app/errors'
import { CliError, EXIT } from '../util'
import { type LocatedTarget, locateTarget } from './locate'
import type { Session } from './session'

/**
 * The locator fields every line of `label --file` and `adjudicate --file` carries, as the flags
 * name a target; dataset and annotator may come from the flags instead.
 */
const LOCATOR_FIELDS = {
  dataset: z.string().min(1).optional(),
  item: z.string().min(1),
  variant: z.string().min(1).optional(),
  /** 1-based, as `factlab units list` numbers units. */
  unit: z.number().int().positive().optional(),
  unitText: z.string().min(1).optional(),
  annotator: z.string().trim().min(1).optional(),
}
type LineLocator = z.infer<z.ZodObject<typeof LOCATOR_FIELDS>>

const namesOneUnit = (l: LineLocator) => (l.unit === undefined) !== (l.unitText === undefined)

/** A line's schema: the locator fields and `fields`, naming its unit exactly one way. */
export function lineSchema<F extends z.ZodRawShape>(fields: F) {
  return z.strictObject({ ...LOCATOR_FIELDS, ...fields }).refine((l) => namesOneUnit(l as LineLocator), {
    error: 'give exactly one of "unit" and "unitText"',
  })
}

export interface LocatedLine<T> {
  line: number
  target: LocatedTarget
  row: T
  /** The person the line speaks for: its own "annotator", else the flag. */
  annotator: string
}

/**
 * Reads a JSONL file and locates every line's target before anything is written, so a bad line
 * (named by its number) is refused while the workspace is still untouched.
 */
export async function locateLines<T extends LineLocator>(
  s: Session,
  file: string,
  schema: z.ZodType<T, unknown>,
  flags: { dataset?: string | undefined; annotator?: string | undefined },
): Promise<LocatedLine<T>[]> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const planned: LocatedLine<T>[] = []
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
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new CliError(`${at}: ${z.prettifyError(parsed.error)}; nothing was saved`)
    const row = parsed.data
    const dataset = row.dataset ?? flags.dataset
    const annotator = row.annotator ?? flags.annotator
    if (!dataset) throw new CliError(`${at}: no "dataset" (or --dataset); nothing was saved`)
    if (!annotator) throw new CliError(`${at}: no "annotator" (or --annotator); nothing was saved`)
    try {
      const target = await locateTarget(s, {
        dataset,
        item: row.item,
        ...(row.variant !== undefined ? { variant: row.variant } : {}),
        ...(row.unit !== undefined ? { unit: row.unit } : {}),
        ...(row.unitText !== undefined ? { unitText: row.unitText } : {}),
      })
      planned.push({ line: i + 1, target, row, annotator })
    } catch (error) {
      throw new CliError(
        `${at}: ${error instanceof Error ? error.message : String(error)}; nothing was saved`,
      )
    }
  }
  return planned
}

/**
 * Refuses a file that names one target twice (for the same person, when `perPerson`): in an
 * all-or-nothing file a second line would quietly overrule the first, and which of two
 * contradicting verdicts was meant is the writer's to say, so both line numbers are named.
 */
export function refuseRepeatedTargets<T>(
  file: string,
  planned: readonly LocatedLine<T>[],
  perPerson: boolean,
): void {
  const firstLine = new Map<string, number>()
  for (const p of planned) {
    const key = perPerson ? `${p.target.targetId} ${p.annotator}` : String(p.target.targetId)
    const earlier = firstLine.get(key)
    if (earlier === undefined) {
      firstLine.set(key, p.line)
      continue
    }
    const t = p.target
    throw new CliError(
      `${file} line ${p.line}: names the same target as line ${earlier} (item ${t.page.item.extId}, ${t.variant}, unit ${t.number}` +
        `${perPerson ? `, for ${p.annotator}` : ''}); give each target once; nothing was saved`,
    )
  }
}

/**
 * Applies every located line in one transaction with a synchronous handler: the first line that
 * fails (named by its number) rolls back all of them, so the workspace is as it was.
 */
export function applyLines<T, R>(
  s: Session,
  file: string,
  planned: readonly LocatedLine<T>[],
  apply: (line: LocatedLine<T>) => R | Promise<R>,
): R[] {
  return s.db.transaction(() =>
    planned.map((p) => {
      try {
        const r = apply(p)
        // A promise here would escape the transaction.
        if (r instanceof Promise) throw new Error('the handler answered asynchronously')
        return r
      } catch (error) {
        // A busy or full workspace is no fault of the line: the whole file may be sent again.
        const passing = error instanceof ServiceError ? error : unavailableError(error)
        if (passing?.code === 'unavailable') throw new CliError(passing.message, EXIT.tempFail)
        const why =
          error instanceof z.ZodError
            ? z.prettifyError(error)
            : error instanceof Error
              ? error.message
              : String(error)
        throw new CliError(`${file} line ${p.line}: ${why}; nothing was saved`)
      }
    }),
  )()
}

/**
 * The people a file's lines name, as ids. Every name is checked before the first line is written
 * (`check` adds a refusal of its own, such as a laptop's package annotator), so a misspelt one is
 * refused with the file untouched rather than added as a person. A new name that `mayAdd` allows
 * is added only when its line is written, inside the lines' transaction: a refused file adds nobody.
 */
export function linePeople<T>(
  s: Session,
  file: string,
  planned: readonly LocatedLine<T>[],
  mayAdd: boolean,
  check: (line: LocatedLine<T>) => void = () => {},
): (name: string) => number {
  const ids = new Map<string, number | null>()
  for (const p of planned) {
    try {
      check(p)
      if (!ids.has(p.annotator)) ids.set(p.annotator, s.knownPerson(p.annotator, mayAdd))
    } catch (error) {
      if (!(error instanceof CliError)) throw error
      const said = error.message.endsWith('nothing was saved')
        ? error.message
        : `${error.message}; nothing was saved`
      throw new CliError(`${file} line ${p.line}: ${said}`, error.exitCode)
    }
  }
  return (name) => {
    const known = ids.get(name)
    if (known !== undefined && known !== null) return known
    const id = s.person(name, true)
    ids.set(name, id)
    return id
  }
}
