import { z } from 'zod'
import { EvidenceSpan } from '../../shared/domain'
import type { Workspace } from '../app/workspace'
import { getDataset } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleHeader, type BundleLabel } from './bundleFormat'
import { datasetContentHash } from './contentHash'
import { writeFileAtomically } from './sink'

const Evidence = z.array(EvidenceSpan)

interface LabelSql {
  target_id: number
  ext_id: string
  variant: string
  kind: BundleLabel['target']['kind']
  text: string
  occ: number
  verdict: string | null
  evidence: string
  note: string | null
  seconds: number
  created_at: string
  updated_at: string
}

/**
 * Writes one annotator's labels of one dataset as a bundle another workspace can merge. Only
 * labels on current unit versions travel: the content hash covers current units, so those are
 * exactly the targets the receiving workspace is known to have.
 */
export async function exportBundle(
  ws: Workspace,
  opts: { datasetId: number; annotatorId: number; out: string },
): Promise<{ file: string; labels: number }> {
  const db = ws.db
  const dataset = getDataset(db, opts.datasetId)
  const annotator = db.prepare('SELECT name FROM annotators WHERE id = ?').get(opts.annotatorId) as
    | { name: string }
    | undefined
  if (!annotator) throw new Error(`No annotator with id ${opts.annotatorId}`)
  const contentHash = datasetContentHash(db, dataset.id)
  const params = { ds: dataset.id, ann: opts.annotatorId }
  const total = (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
         WHERE t.dataset_id = @ds AND l.annotator_id = @ann AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
      )
      .get(params) as { n: number }
  ).n
  const labels = db.prepare(
    `WITH cu AS (
       SELECT u.id, u.kind, u.text,
         ROW_NUMBER() OVER (PARTITION BY u.item_id, u.candidate_id, u.kind, u.text ORDER BY u.position, u.id) - 1 AS occ
       FROM units u JOIN items i ON i.id = u.item_id
       WHERE i.dataset_id = @ds AND u.superseded_by IS NULL AND u.deleted_at IS NULL)
     SELECT l.target_id, i.ext_id, c.variant, cu.kind, cu.text, cu.occ, l.verdict, l.evidence, l.note,
       l.seconds, l.created_at, l.updated_at
     FROM labels l JOIN targets t ON t.id = l.target_id JOIN cu ON cu.id = t.unit_id
     JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
     WHERE t.dataset_id = @ds AND l.annotator_id = @ann
     ORDER BY i.position, c.id, cu.kind, cu.id`,
  )
  const history = db.prepare(
    `SELECT verdict, evidence, note, seconds, action, at FROM label_history
     WHERE target_id = ? AND annotator_id = ? ORDER BY id`,
  )
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    dataset: { name: dataset.name, contentHash },
    annotator: { name: annotator.name },
    exportedAt: new Date().toISOString(),
    labels: total,
  }
  let written = 0
  writeFileAtomically(opts.out, (sink) => {
    sink.write(`${JSON.stringify(header)}\n`)
    for (const r of labels.iterate(params) as IterableIterator<LabelSql>) {
      const line: BundleLabel = {
        target: { item: r.ext_id, variant: r.variant, kind: r.kind, unit: r.text, occurrence: r.occ },
        verdict: r.verdict,
        evidence: parseJson(Evidence, r.evidence, 'labels.evidence'),
        note: r.note,
        seconds: r.seconds,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        history: (
          history.all(r.target_id, opts.annotatorId) as {
            verdict: string | null
            evidence: string
            note: string | null
            seconds: number
            action: string
            at: string
          }[]
        ).map((h) => ({ ...h, evidence: parseJson(Evidence, h.evidence, 'label_history.evidence') })),
      }
      sink.write(`${JSON.stringify(line)}\n`)
      written++
    }
  })
  return { file: opts.out, labels: written }
}
