import type { ImportFormat } from '../../shared/importMapping'
import type { LabelSchema } from '../../shared/labelSchemas'
import { OWN_SCORE_WORDS } from '../../shared/ownScore'
import { countOf } from '../../shared/plural'
import type { Workspace } from '../app/workspace'
import type { Db } from '../store/connection'
import { findDatasetByName } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { UNIT_ORDER, type UnitBase } from '../units/numbering'
import { importedVerdictWriter } from '../verdicts/write'
import { inOwnTransaction, inSavepoint } from './atomic'
import { ImportError, RowError } from './errors'
import { expandPaths, isFolder } from './multi/expand'
import { nameParts } from './multi/names'
import type { Row } from './normalized'
import { findColumn } from './presets/flat'
import { openRows, placeText } from './sources'
import { cellText, matchKey, toVerdict } from './text'

export interface ImportVerdictsOptions {
  /** One file, or several files or folders: one run per file, all imported or none. */
  file: string | readonly string[]
  datasetName: string
  format?: ImportFormat
  model?: string
  method?: string
  skipBadRows?: boolean
  /**
   * How the file numbers units: 1 (default) = the unit's number in its item as `units list`
   * shows it; 0 = older files, 0-based within the candidate's judged units (facts first), as
   * FaaF's `fact_0 … fact_n` fields count.
   */
  unitBase?: UnitBase
  /** What a single file's run records as its file: an upload's own name, not its temporary copy. */
  recordedAs?: string
  /**
   * Several files: the names the person knows them by (uploads sit in temporary folders), one
   * per file in order, for the runs' names and the files they record, as the CLI names them.
   */
  shownNames?: readonly string[]
}

export interface ImportVerdictsReport {
  runId: number
  verdicts: number
  /** Of the verdicts, those that give none (N/A: "maybe", empty), counted apart as the run list counts them. */
  na: number
  skipped: { line: number; at: string; reason: string; file?: string }[]
  /** Several files: each file's run (runId, verdicts and na above are the first run's and the totals). */
  runs?: { file: string; runId: number; model: string; verdicts: number; na: number }[]
}

interface Resolved {
  targetId: number
  status: 'ok' | 'na'
  verdict: string | null
  score: number | null
  reason: string | null
  citation: string | null
}

/** Finds the target a verdict row names: item id, candidate variant, unit by number or text. */
class TargetFinder {
  private readonly item
  private readonly candidate
  private readonly units
  private readonly itemUnits
  private readonly target

  constructor(
    db: Db,
    private readonly datasetId: number,
    private readonly unitBase: UnitBase,
  ) {
    this.item = db.prepare('SELECT id FROM items WHERE dataset_id = ? AND ext_id = ?')
    this.candidate = db.prepare('SELECT id FROM candidates WHERE item_id = ? AND variant = ?')
    // Base 0 (older files): the units judged in a candidate, facts first (fact_0, fact_1, ...).
    this.units = db.prepare(
      `SELECT t.id AS targetId, u.text AS text FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.candidate_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       ORDER BY u.kind = 'fact' DESC, u.position, u.id`,
    )
    // Base 1: the item's units numbered as `units list` shows them (units/numbering.ts).
    this.itemUnits = db.prepare(
      `SELECT u.id, u.candidate_id AS candidateId, (SELECT variant FROM candidates WHERE id = u.candidate_id) AS variant
       FROM units u LEFT JOIN candidates c ON c.id = u.candidate_id
       WHERE u.item_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY ${UNIT_ORDER}`,
    )
    this.target = db.prepare('SELECT id FROM targets WHERE unit_id = ? AND candidate_id = ?')
  }

  find(itemId: string, variant: string, unit: unknown, unitField: string): number {
    const item = this.item.get(this.datasetId, itemId) as { id: number } | undefined
    if (!item) throw new RowError(`no item with id "${itemId}" in this dataset`, 'item_id')
    const cand = this.candidate.get(item.id, variant) as { id: number } | undefined
    if (!cand) throw new RowError(`item "${itemId}" has no candidate "${variant}"`, 'variant')
    const units = this.units.all(cand.id) as { targetId: number; text: string }[]
    const numbered = typeof unit === 'number' || (typeof unit === 'string' && /^\s*\d+\s*$/.test(unit))
    const factField = typeof unit === 'string' ? /^\s*fact_(\d+)\s*$/.exec(unit)?.[1] : undefined
    if (factField !== undefined && this.unitBase === 1)
      throw new RowError(
        `"${String(unit)}" counts units from 0 (FaaF's field names); import this file with --unit-base 0`,
        unitField,
      )
    if (numbered && this.unitBase === 1)
      return this.byNumber(item.id, itemId, cand.id, variant, Number(unit), unitField)
    const index = numbered ? Number(unit) : factField
    if (index !== undefined) {
      const hit = units[Number(index)]
      if (!hit) throw new RowError(`unit index ${index} is out of range (0–${units.length - 1})`, unitField)
      return hit.targetId
    }
    if (typeof unit !== 'string' || unit.trim() === '') throw new RowError('missing', unitField)
    const key = matchKey(unit)
    const hit = units.find((u) => matchKey(u.text) === key)
    if (!hit)
      throw new RowError(`no unit of "${itemId}"/"${variant}" reads "${unit.slice(0, 60)}"`, unitField)
    return hit.targetId
  }

  private byNumber(
    itemRowId: number,
    itemId: string,
    candidateId: number,
    variant: string,
    n: number,
    unitField: string,
  ): number {
    const all = this.itemUnits.all(itemRowId) as {
      id: number
      candidateId: number | null
      variant: string | null
    }[]
    const u = all[n - 1]
    if (n < 1 || !u)
      throw new RowError(
        `item "${itemId}" has ${countOf(all.length, 'unit')} numbered 1–${all.length}; there is no unit ${n}${n === 0 ? ' (a file that counts from 0 imports with --unit-base 0)' : ''}`,
        unitField,
      )
    const t = this.target.get(u.id, candidateId) as { id: number } | undefined
    if (!t)
      throw new RowError(
        `unit ${n} of item "${itemId}" belongs to variant "${u.variant}", not "${variant}"`,
        unitField,
      )
    return t.id
  }
}

/**
 * DCR's or the holistic judge's word on a numeric dataset (shared/ownScore.ts): kept as the
 * method's word, since the scale has none.
 */
function ownWord(words: Readonly<Record<string, number>>, raw: unknown): string {
  const word = (typeof raw === 'string' ? raw : String(raw))
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
  if (Object.hasOwn(words, word)) return word
  throw new RowError(`${JSON.stringify(raw)} is not one of ${Object.keys(words).join(', ')}`)
}

function resolve(
  row: Row,
  finder: TargetFinder,
  schema: LabelSchema,
  cols: Record<string, string | undefined>,
  method: string | undefined,
): Resolved {
  const need = (name: string) => {
    const c = cols[name]
    if (!c) throw new RowError('missing', name)
    return c
  }
  const itemId = cellText(row, need('item_id'), true)!
  const variant = cellText(row, need('variant'), true)!
  const unitCol = need('unit')
  const targetId = finder.find(itemId, variant, row[unitCol], unitCol)
  const raw = cols.verdict ? row[cols.verdict] : undefined
  // Optional fields may appear on some JSON rows only, so they are looked up per row.
  const keys = Object.keys(row)
  const optional: Record<string, string | undefined> = {
    score: findColumn(keys, 'score'),
    reason: findColumn(keys, 'reason', 'explanation'),
    citation: findColumn(keys, 'citation'),
  }
  const text = (k: string) => (optional[k] ? cellText(row, optional[k]!, false) : null)
  const base = { targetId, reason: text('reason'), citation: text('citation') }
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
    return { ...base, status: 'na', verdict: null, score: null, reason: base.reason ?? 'no verdict given' }
  const own = schema.type === 'numeric' && method ? OWN_SCORE_WORDS[method] : undefined
  let verdict: string
  try {
    verdict = own ? ownWord(own, raw) : toVerdict(schema, raw)
  } catch (error) {
    // An answer outside the schema is the judge's format failure (N/A), not a broken file.
    return {
      ...base,
      status: 'na',
      verdict: null,
      score: null,
      reason: base.reason ?? (error as Error).message,
    }
  }
  const rawScore = optional.score ? row[optional.score] : undefined
  const given =
    typeof rawScore === 'number' || (typeof rawScore === 'string' && rawScore.trim() !== '')
      ? Number(rawScore)
      : Number.NaN
  const score = Number.isFinite(given)
    ? given
    : own
      ? own[verdict]!
      : schema.type === 'numeric'
        ? Number(verdict)
        : (schema.scores?.[verdict] ?? null)
  return { ...base, status: 'ok', verdict, score }
}

/**
 * Imports verdicts made elsewhere as a finished run (provider `imported`) of a dataset, so an
 * external judge can be compared with humans and with FactLab's own judges. Several files (or a
 * folder) make one run per file, all in one transaction: one bad file imports none of them.
 */
export async function importVerdicts(
  ws: Workspace,
  opts: ImportVerdictsOptions,
): Promise<ImportVerdictsReport> {
  const dataset = findDatasetByName(ws.db, opts.datasetName)
  if (!dataset) throw new ImportError(`No dataset named "${opts.datasetName}" in this workspace`)
  const given = typeof opts.file === 'string' ? [opts.file] : [...opts.file]
  if (given.length === 0) throw new ImportError('No file to import')
  const multi = given.length > 1 || (await isFolder(given[0]!))
  const files = multi ? await expandPaths(given) : given
  // Names the person knows apply file by file only where no folder was expanded into files.
  const shown = opts.shownNames?.length === files.length ? opts.shownNames : undefined
  const parts = multi ? nameParts(files, shown) : [{ file: given[0]!, variant: '' }]
  return await inOwnTransaction(ws, async (db) => {
    const runs: NonNullable<ImportVerdictsReport['runs']> = []
    const skipped: ImportVerdictsReport['skipped'] = []
    for (const [i, part] of parts.entries()) {
      // With several files the run takes the file's name, unless a model was given for all.
      const model = opts.model ?? (multi ? part.variant : 'unknown')
      const recordedAs = multi ? shown?.[i] : opts.recordedAs
      const one = await importRun(db, dataset, part.file, { ...opts, model, recordedAs })
      runs.push({ file: part.file, runId: one.runId, model, verdicts: one.verdicts, na: one.na })
      skipped.push(...one.skipped.map((s) => (multi ? { ...s, file: part.file } : s)))
    }
    return {
      runId: runs[0]!.runId,
      verdicts: runs.reduce((n, r) => n + r.verdicts, 0),
      na: runs.reduce((n, r) => n + r.na, 0),
      skipped,
      ...(multi ? { runs } : {}),
    }
  })
}

/** One file's verdicts as one finished run, inside the caller's transaction. */
async function importRun(
  db: Db,
  dataset: { id: number; labelSchema: LabelSchema },
  file: string,
  opts: Omit<ImportVerdictsOptions, 'file'>,
): Promise<{
  runId: number
  verdicts: number
  na: number
  skipped: { line: number; at: string; reason: string }[]
}> {
  const source = await openRows(file, opts.format)
  const place = (line: number, column?: number) => placeText(source.unit, line, column)
  try {
    const finder = new TargetFinder(db, dataset.id, opts.unitBase ?? 1)
    const at = now()
    const runId = Number(
      db
        .prepare(
          `INSERT INTO runs (kind, dataset_id, provider, model, method, config, status, created_at, started_at, finished_at)
           VALUES ('imported', ?, 'imported', ?, ?, ?, 'done', ?, ?, ?)`,
        )
        .run(
          dataset.id,
          opts.model ?? 'unknown',
          opts.method ?? 'imported',
          JSON.stringify({ file: opts.recordedAs ?? file, importedAt: at }),
          at,
          at,
          at,
        ).lastInsertRowid,
    )
    const insert = importedVerdictWriter(db, runId)
    const skipped: { line: number; at: string; reason: string }[] = []
    let cols: Record<string, string | undefined> | null = null
    let verdicts = 0
    let na = 0
    let records = 0
    for await (const ev of source.events) {
      if (ev.kind === 'header') continue
      records++
      try {
        if (ev.kind === 'bad') throw new RowError(ev.error)
        if (!cols) cols = verdictColumns(file, Object.keys(ev.row))
        const r = resolve(ev.row, finder, dataset.labelSchema, cols, opts.method)
        const write = () => {
          try {
            insert(r)
          } catch (error) {
            if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
              throw new RowError('a second verdict for the same target', cols?.unit)
            throw error
          }
        }
        if (opts.skipBadRows) inSavepoint(db, write)
        else write()
        verdicts++
        if (r.status === 'na') na++
      } catch (error) {
        if (!(error instanceof RowError)) throw error
        const at = place(ev.line, ev.kind === 'bad' ? ev.column : undefined)
        if (!opts.skipBadRows) throw new ImportError(`${file}, ${at}: ${error.reason}`)
        skipped.push({ line: ev.line, at, reason: error.reason })
      }
    }
    if (verdicts === 0)
      throw new ImportError(
        records === 0
          ? `${file}: holds no verdicts`
          : `${file}: ${records === 1 ? 'its one row' : `none of its ${countOf(records, 'row')}`} could be imported`,
      )
    return { runId, verdicts, na, skipped }
  } finally {
    await source.events.return(undefined)
  }
}

function verdictColumns(file: string, columns: string[]): Record<string, string | undefined> {
  const cols = {
    item_id: findColumn(columns, 'item_id', 'item', 'id'),
    variant: findColumn(columns, 'variant', 'candidate'),
    unit: findColumn(columns, 'unit', 'unit_index', 'fact', 'unit_text'),
    verdict: findColumn(columns, 'verdict', 'label', 'prediction'),
  }
  for (const need of ['item_id', 'variant', 'unit', 'verdict'] as const)
    if (!cols[need])
      throw new ImportError(
        `${file}: missing required column "${need}" (its columns: ${columns.map((c) => `"${c}"`).join(', ')})`,
      )
  return cols
}
