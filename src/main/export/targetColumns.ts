import { z } from 'zod'
import { EvidenceSpan } from '../../shared/domain'
import { isDefaultGoldRule } from '../../shared/goldRule'
import { type LabelSchema, toBinary } from '../../shared/labelSchemas'
import { labelSchemaText } from '../../shared/labelSchemaText'
import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import { datasetSettings } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { JsonObjectText } from './jsonObjectText'
import { loadLabelTable, notePlacedTimes } from './labelTable'
import { guidelinesCell, planCell } from './projectColumns'
import { type ContextSql, contextReader } from './targetContext'
import { goldReader } from './targetGold'
import { KINDS, mainRows, ORIGINS } from './targetUnitRows'

export type Cell = string | number | null

export interface AnnotatorColumn {
  id: number
  name: string
  column: string
}

/** Targets per batch: rows repeat ~KB texts, so a batch stays a few MB. */
export const BATCH_ROWS = 10_000

/** Per current target, what the dataset card counts: called once per target, in export order. */
export interface TargetTally {
  /**
   * Annotator ids and verdict codes (into `verdicts`) of the target's labels with a verdict, and
   * whether the target is a control item (its labels count, its agreement does not).
   */
  target(
    annotators: readonly number[],
    codes: readonly number[],
    verdicts: readonly string[],
    control: boolean,
  ): void
}

const Spans = z.array(EvidenceSpan)

/** The lowest and highest id of a dataset's targets: its labels are read in one range scan. */
export function targetIdRange(db: Db, datasetId: number): [number, number] {
  const r = db.prepare('SELECT MIN(id), MAX(id) FROM targets WHERE dataset_id = ?').raw().get(datasetId) as [
    number | null,
    number | null,
  ]
  return [r[0] ?? 0, r[1] ?? -1]
}

/**
 * One batch of column arrays per BATCH_ROWS current targets in reading order (item, candidate,
 * unit): the "long" layout, columns in targetFeatures order. Nothing per row is built but the
 * cells themselves, and only one batch is held at a time; the labels are held as a few typed
 * arrays (labelTable.ts).
 */
export function* targetBatches(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  annotators: readonly AnnotatorColumn[],
  tally?: TargetTally,
  range: readonly [number, number] = targetIdRange(db, datasetId),
): Generator<Cell[][]> {
  const [lo, hi] = range
  const labels = loadLabelTable(db, lo, hi, schema.type === 'categorical' ? schema.values : [])
  notePlacedTimes(db, labels, datasetId, lo, hi)
  const gold = goldReader(db, datasetId, labels)
  // Column of each annotator id (-1: not exported); ids are small row ids.
  const columnOf = new Int32Array(Math.max(0, ...annotators.map((a) => a.id + 1))).fill(-1)
  annotators.forEach((a, i) => {
    columnOf[a.id] = i
  })
  const A = annotators.length
  const tail = 10 + A
  const width = tail + 16
  // Dataset-level facts repeated on each row, so the file alone brings the dataset back
  // (import/presets/factlab.ts): which columns are reference labels, and the label schema.
  const exported = new Set(annotators.map((a) => a.id))
  const sourceNames = listAnnotators(db)
    .filter((a) => a.kind === 'source' && exported.has(a.id))
    .map((a) => a.name)
  const sourcesCell = sourceNames.length > 0 ? JSON.stringify(sourceNames) : null
  const schemaCell = labelSchemaText(schema)
  const rule = datasetSettings(db, datasetId).goldRule
  const ruleCell = isDefaultGoldRule(rule) ? null : JSON.stringify(rule)
  // Long and dataset-level: on the file's first row only (projectColumns.ts).
  let projectCells: [string | null, string | null] | null = [
    guidelinesCell(db, datasetId),
    planCell(db, datasetId),
  ]
  const project = () => {
    cols[tail + 13]![n] = projectCells?.[0] ?? null
    cols[tail + 14]![n] = projectCells?.[1] ?? null
    projectCells = null
  }
  const context = contextReader(db, datasetId)
  const rows = mainRows(db, datasetId)
  const names = annotators.map((a) => a.name)
  const notes = new JsonObjectText(names)
  const seconds = new JsonObjectText(names)
  const versions = new JsonObjectText(names)
  const placed = new JsonObjectText(names)
  const fresh = () => Array.from({ length: width }, () => [] as Cell[])
  let cols = fresh()
  let n = 0
  const givenBy: number[] = []
  const givenCodes: number[] = []
  /** The one row of an answer with no current units: its item and text, nothing to judge. */
  const answerOnly = (c: ContextSql) => {
    for (let k = 5; k < width; k++) cols[k]![n] = null
    for (let k = 0; k < 5; k++) cols[k]![n] = c[k + 3] ?? null
    cols[tail + 8]![n] = sourcesCell
    cols[tail + 9]![n] = schemaCell
    cols[tail + 10]![n] = c[8]
    cols[tail + 11]![n] = c[9]
    cols[tail + 12]![n] = ruleCell
    project()
    n++
  }
  try {
    for (const chunk of rows)
      for (const r of chunk) {
        const [targetId, itemId, position, candidateId] = r
        const c = context.get(position, itemId, candidateId)
        for (const passed of context.passed()) {
          answerOnly(passed)
          if (n === BATCH_ROWS) {
            yield cols
            cols = fresh()
            n = 0
          }
        }
        cols[0]![n] = c[3]
        cols[1]![n] = c[4]
        cols[2]![n] = c[5]
        cols[3]![n] = c[6]
        cols[4]![n] = c[7]
        cols[5]![n] = typeof r[4] === 'number' ? KINDS[r[4]]! : r[4]
        cols[6]![n] = r[5]
        cols[7]![n] = r[6]
        cols[8]![n] = typeof r[7] === 'number' ? ORIGINS[r[7]]! : r[7]
        cols[9]![n] = r[8]
        for (let a = 0; a < A; a++) cols[10 + a]![n] = null
        const first = labels.first(targetId)
        let end = first
        while (end < labels.size && labels.target[end] === targetId) end++
        let evidence: { annotator: string; pane: string; start: number; end: number; text: string }[] | null =
          null
        notes.reset()
        seconds.reset()
        versions.reset()
        placed.reset()
        givenBy.length = 0
        givenCodes.length = 0
        for (let k = first; k < end; k++) {
          const v = labels.verdict[k]!
          if (v >= 0) {
            givenBy.push(labels.annotator[k]!)
            givenCodes.push(v)
          }
          const col = columnOf[labels.annotator[k]!] ?? -1
          if (col < 0) continue
          const a = annotators[col]!
          cols[10 + col]![n] = v < 0 ? null : labels.verdicts[v]!
          const note = labels.notes.get(k)
          // Objects only for the few targets that have something to put in them.
          if (note) notes.add(col, note)
          if (v >= 0) {
            seconds.add(col, labels.seconds[k]!)
            const g = labels.guidelines[k]!
            if (!Number.isNaN(g)) versions.add(col, g)
            const at = labels.placed(k)
            if (at !== undefined) placed.add(col, at)
          }
          const spans = labels.evidence.get(k)
          if (spans !== undefined)
            for (const span of parseJson(Spans, spans, 'labels.evidence')) {
              const source = span.pane === 'reference' ? c[5] : c[7]
              evidence ??= []
              evidence.push({ annotator: a.name, ...span, text: source.slice(span.start, span.end) })
            }
        }
        const control = r[9]
        tally?.target(givenBy, givenCodes, labels.verdicts, control !== null)
        const g = gold(targetId, first, end)
        cols[tail]![n] = g?.verdict ?? null
        cols[tail + 1]![n] = g?.source ?? null
        cols[tail + 2]![n] = g ? toBinary(schema, g.verdict) : null
        cols[tail + 3]![n] = control
        cols[tail + 4]![n] = evidence ? JSON.stringify(evidence) : null
        cols[tail + 5]![n] = notes.text()
        cols[tail + 6]![n] = seconds.text()
        cols[tail + 7]![n] = versions.text()
        cols[tail + 8]![n] = sourcesCell
        cols[tail + 9]![n] = schemaCell
        cols[tail + 10]![n] = c[8]
        cols[tail + 11]![n] = c[9]
        cols[tail + 12]![n] = ruleCell
        cols[tail + 15]![n] = placed.text()
        project()
        if (++n === BATCH_ROWS) {
          yield cols
          cols = fresh()
          n = 0
        }
      }
    for (const passed of context.passed(true)) {
      answerOnly(passed)
      if (n === BATCH_ROWS) {
        yield cols
        cols = fresh()
        n = 0
      }
    }
    if (n > 0) yield cols
  } finally {
    context.close()
  }
}
