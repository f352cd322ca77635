import type { ImportFormat } from '../../shared/importMapping'
import { type RefContext, summevalDimensions } from './presets/nested'
import { openRows } from './sources'

/*
 * A setting that no row of the file answers to (a misspelt SummEval dimension, a second file
 * whose ids are none of the file's) makes every row a bad row: refused row by row, or with
 * "Skip bad rows" every row listed as skipped. It is the setting that is wrong, not the rows, so
 * the import refuses it before writing anything, in one sentence that names what the file has.
 * Reading stops at the first row that answers, so a right setting costs about one row's read;
 * only a setting that matches nothing reads the files whole, to name everything they hold.
 */

export interface RowSettings {
  format?: ImportFormat
  /** SummEval: the dimension whose ratings become the labels. */
  dimension?: string
  /** RefChecker: the second file's question and reference per id. */
  byId?: ReadonlyMap<string, RefContext>
}

/** Ids shown in a refusal: enough to recognise the files by, not the whole list. */
const SHOWN_IDS = 3

const quoted = (xs: readonly string[]) =>
  xs
    .slice(0, SHOWN_IDS)
    .map((x) => `"${x}"`)
    .join(', ')

/** "a, b and c". */
function inWords(xs: readonly string[]): string {
  return xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`
}

/** Why a setting matches no row of these files; null when each setting matches some row. */
export async function settingMatchingNoRow(files: readonly string[], s: RowSettings): Promise<string | null> {
  const dimension = s.dimension
  const byId = s.byId && s.byId.size > 0 ? s.byId : undefined
  if (dimension === undefined && byId === undefined) return null
  let dimensionMet = dimension === undefined
  let idMet = byId === undefined
  const rated = new Set<string>()
  const ids: string[] = []
  for (const file of files) {
    const source = await openRows(file, s.format)
    try {
      let columns: string[] | null = null
      for await (const ev of source.events) {
        if (ev.kind === 'header') {
          columns = ev.columns
          continue
        }
        if (ev.kind !== 'row') continue
        if (!dimensionMet) {
          const here = summevalDimensions(columns ?? Object.keys(ev.row), [ev.row])
          for (const d of here) rated.add(d)
          dimensionMet = here.includes(dimension!)
        }
        if (!idMet) {
          const id = ev.row.id
          if (typeof id === 'string' || typeof id === 'number') {
            idMet = byId!.has(String(id))
            if (ids.length < SHOWN_IDS) ids.push(String(id))
          }
        }
        if (dimensionMet && idMet) return null
      }
    } finally {
      await source.events.return(undefined)
    }
  }
  // A file that rates nothing is not read as SummEval: the layout's own check says so.
  if (!dimensionMet && rated.size > 0)
    return `No row of the file rates the dimension "${dimension}"; its rows rate ${inWords([...rated].sort())}.`
  if (!idMet && ids.length > 0)
    return `The second file's ids match none of the file's rows (the file's ids begin ${quoted(ids)}, the second file's ${quoted([...byId!.keys()])}): check that the two files belong together.`
  return null
}
