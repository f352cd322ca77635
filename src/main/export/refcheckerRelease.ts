import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { capitalised, ExtractorMeta, responseVariant } from '../../shared/refcheckerExtractors'
import { resolveGold } from '../labels/gold'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { type FileSink, writeFilesTogether } from './sink'

/**
 * A RefChecker dataset in the layout RefChecker released its human annotations in:
 * `<setting>/<source>_<variant>_answers.json`, one file per variant (model), each a JSON list of
 * `{id, response, <extractor>_response_kg: [{triplet: [s, p, o], human_label}], …}` with the gold
 * label spelt as in the release. Each extractor's candidate goes back under its own key, in the
 * order imported; an empty list stays an empty list (an abstention) and a key the released row
 * did not have stays out. Question and reference are added only where the item has them, so the folder
 * imports back through the `refchecker` preset into the same dataset.
 */

const Triplet = z.tuple([z.string(), z.string(), z.string()])

const safe = (s: string) => s.replace(/[^\w.-]+/g, '_')

interface CandidateRow {
  id: number
  variant: string
  text: string
  metadata: string
  itemId: number
  extId: string
  question: string | null
  reference: string
}

interface UnitRow {
  targetId: number
  text: string
  triplet: string | null
  origin: string
}

function candidateMeta(json: string): ExtractorMeta {
  const parsed = ExtractorMeta.safeParse(JSON.parse(json))
  return parsed.success ? parsed.data : {}
}

export function writeRefcheckerRelease(
  db: Db,
  datasetId: number,
  outDir: string,
): { files: string[]; rows: number; labels: number } {
  const dataset = getDataset(db, datasetId)
  const meta = dataset.source.metadata ?? {}
  const setting = safe(typeof meta.setting === 'string' ? meta.setting : dataset.name)
  // The source part of a file name has no underscore (that is how the name is read back).
  const source = typeof meta.source === 'string' ? meta.source.replace(/_/g, '-') : 'data'
  // Every target's gold, control items' too (the metrics snapshot leaves controls out).
  const gold = resolveGold(db, datasetId)
  const goldOf = new Map<number, string>()
  for (const [targetId, g] of gold) goldOf.set(targetId, g.verdict)
  const candidates = db
    .prepare(
      `SELECT c.id AS id, c.variant AS variant, c.text AS text, c.metadata AS metadata, i.id AS itemId,
              i.ext_id AS extId, i.question AS question, i.reference AS reference
       FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    )
    .all(datasetId) as CandidateRow[]
  const units = db.prepare(
    `SELECT t.id AS targetId, u.text AS text, u.triplet AS triplet, u.origin AS origin FROM targets t
     JOIN units u ON u.id = t.unit_id
     WHERE t.candidate_id = ? AND u.kind = 'triplet' AND u.superseded_by IS NULL AND u.deleted_at IS NULL
     ORDER BY u.position, u.id`,
  )
  const byVariant = new Map<string, Record<string, unknown>[]>()
  // One released row per response: an item's extractors' candidates (one variant each) meet again.
  const rowOf = new Map<string, Record<string, unknown>>()
  let labels = 0
  for (const c of candidates) {
    const meta = candidateMeta(c.metadata)
    const variant = responseVariant(c.variant, meta.extractor)
    const key = JSON.stringify([c.itemId, variant])
    let row = rowOf.get(key)
    if (!row) {
      row = { id: c.extId, response: c.text }
      if (c.question) row.question = c.question
      if (c.reference.trim() !== '') row.reference = c.reference
      rowOf.set(key, row)
      const list = byVariant.get(variant)
      if (list) list.push(row)
      else byVariant.set(variant, [row])
    }
    const spelling = (verdict: string) => meta.published_labels?.[verdict] ?? capitalised(verdict)
    const lists = new Map<string, unknown[]>()
    for (const r of units.all(c.id) as UnitRow[]) {
      const parsed = r.triplet === null ? null : Triplet.safeParse(JSON.parse(r.triplet))
      const gold = goldOf.get(r.targetId)
      if (gold !== undefined) labels++
      // A workspace imported before extractors were kept apart holds both lists in one candidate:
      // each unit's imported origin (`import:gpt4`) names its list; units added by hand join the first.
      const extractor =
        meta.extractor ?? /^import:(\w+)$/.exec(r.origin)?.[1] ?? lists.keys().next().value ?? 'claude2'
      const list = lists.get(extractor) ?? []
      lists.set(extractor, list)
      list.push({
        triplet: parsed?.success ? parsed.data : [r.text, '', ''],
        human_label: gold === undefined ? null : spelling(gold),
      })
    }
    // An empty list is written back as released (`[]`); a key the release never had stays out.
    if (lists.size === 0 && meta.listed !== false) lists.set(meta.extractor ?? 'claude2', [])
    for (const [extractor, list] of lists) row[`${extractor}_response_kg`] = list
  }
  const folder = join(outDir, setting)
  mkdirSync(folder, { recursive: true })
  const parts = [...byVariant].map(([variant, rows]) => ({
    file: join(folder, `${source}_${safe(variant)}_answers.json`),
    rows: rows.length,
    fill: (sink: FileSink) => sink.write(`${JSON.stringify(rows, null, 4)}\n`),
  }))
  writeFilesTogether(parts)
  return { files: parts.map((p) => p.file), rows: parts.reduce((n, p) => n + p.rows, 0), labels }
}
