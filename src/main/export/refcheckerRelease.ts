import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { resolveGold } from '../labels/gold'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { type FileSink, writeFilesTogether } from './sink'

/**
 * A RefChecker dataset in the layout RefChecker released its human annotations in:
 * `<setting>/<source>_<variant>_answers.json`, one file per variant (model), each a JSON list of
 * `{id, response, <extractor>_response_kg: [{triplet: [s, p, o], human_label}]}` with the gold
 * label capitalised as in the release. A response with no triplets keeps an empty list (an
 * abstention). Question and reference are added only where the item has them, so the folder
 * imports back through the `refchecker` preset into the same dataset.
 */

const Triplet = z.tuple([z.string(), z.string(), z.string()])

const safe = (s: string) => s.replace(/[^\w.-]+/g, '_')
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

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
      `SELECT c.id AS id, c.variant AS variant, c.text AS text, i.ext_id AS extId, i.question AS question,
              i.reference AS reference
       FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    )
    .all(datasetId) as {
    id: number
    variant: string
    text: string
    extId: string
    question: string | null
    reference: string
  }[]
  const units = db.prepare(
    `SELECT t.id AS targetId, u.text AS text, u.triplet AS triplet, u.origin AS origin FROM targets t
     JOIN units u ON u.id = t.unit_id
     WHERE t.candidate_id = ? AND u.kind = 'triplet' AND u.superseded_by IS NULL AND u.deleted_at IS NULL
     ORDER BY u.position, u.id`,
  )
  const byVariant = new Map<string, Record<string, unknown>[]>()
  let labels = 0
  for (const c of candidates) {
    const rows = units.all(c.id) as {
      targetId: number
      text: string
      triplet: string | null
      origin: string
    }[]
    // The extractor named in the imported origin (`import:claude2`) names the list again.
    const extractor = rows.map((r) => /^import:(\w+)$/.exec(r.origin)?.[1]).find(Boolean) ?? 'claude2'
    const kg = rows.map((r) => {
      const parsed = r.triplet === null ? null : Triplet.safeParse(JSON.parse(r.triplet))
      const gold = goldOf.get(r.targetId)
      if (gold !== undefined) labels++
      return {
        triplet: parsed?.success ? parsed.data : [r.text, '', ''],
        human_label: gold === undefined ? null : capital(gold),
      }
    })
    const row: Record<string, unknown> = { id: c.extId, response: c.text }
    if (c.question) row.question = c.question
    if (c.reference.trim() !== '') row.reference = c.reference
    row[`${extractor}_response_kg`] = kg
    const list = byVariant.get(c.variant)
    if (list) list.push(row)
    else byVariant.set(c.variant, [row])
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
