import { z } from 'zod'
import { EvidenceSpan, Triplet } from '../../shared/domain'
import type { Workspace } from '../app/workspace'
import { guidelinesReadBy } from '../guidelines/guidelines'
import {
  type BundleLabelRow,
  bundleLabelCount,
  bundleLabelHistory,
  bundleLabelRows,
} from '../labels/bundleReads'
import { bundlePackage } from '../projects/packageReturn'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { oneSnapshot } from '../store/statements'
import type { UnitRow } from '../units/rows'
import { earlierKey } from './bundleChain'
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleHeader,
  type BundleLabel,
  type TargetKey,
} from './bundleFormat'
import { type LineageKey, type LineageRow, lineageKey } from './bundleLineage'
import { datasetContentHash } from './contentHash'
import { datasetOriginHash } from './datasetOrigin'
import { writeFileAtomically } from './sink'

const Evidence = z.array(EvidenceSpan)

type UnitSql = Pick<
  UnitRow,
  'id' | 'item_id' | 'candidate_id' | 'kind' | 'position' | 'text' | 'superseded_by' | 'deleted_at'
>

/** Names where an earlier unit version sits: its own text and the path to the latest version. */
function earlierLocator(
  db: Db,
): (unitId: number) => { occurrence: number; earlier: NonNullable<TargetKey['earlier']> } {
  const unit = db.prepare(
    'SELECT id, item_id, candidate_id, kind, position, text, superseded_by, deleted_at FROM units WHERE id = ?',
  )
  const before = db.prepare(
    `SELECT COUNT(*) AS n FROM units WHERE item_id = @item_id AND kind = @kind AND candidate_id IS @candidate_id
       AND text = @text AND superseded_by IS NULL AND (deleted_at IS NOT NULL) = @deleted
       AND (position < @position OR (position = @position AND id < @id))`,
  )
  return (unitId) => {
    const path: UnitSql[] = []
    const seen = new Set<number>()
    for (let id: number | null = unitId; id !== null; ) {
      const row = unit.get(id) as UnitSql | undefined
      if (!row || seen.has(id)) throw new Error(`The version chain of unit ${unitId} is broken at unit ${id}`)
      seen.add(id)
      path.push(row)
      id = row.superseded_by
    }
    const latest = path[path.length - 1]!
    const deleted = latest.deleted_at === null ? 0 : 1
    const { n } = before.get({ ...latest, deleted }) as { n: number }
    const { occurrence, newer } = earlierKey(path.map((r) => r.text))
    return {
      occurrence,
      earlier: {
        newer,
        latest: { unit: latest.text, occurrence: n, ...(deleted ? { deleted: true as const } : {}) },
      },
    }
  }
}

/** Names a unit version by its lineage (export/bundleLineage.ts), reading each list once. */
function lineageLocator(db: Db): (unitId: number) => LineageKey {
  const unit = db.prepare('SELECT item_id, kind, candidate_id FROM units WHERE id = ?')
  const list = db.prepare(
    `SELECT id, text, origin_text AS originText, superseded_by AS supersededBy, lineage_id AS lineageId
     FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?`,
  )
  // Labels come in reading order, so a list's labels come together; a few lists are kept.
  const lists = new Map<string, LineageRow[]>()
  return (unitId) => {
    const u = unit.get(unitId) as { item_id: number; kind: string; candidate_id: number | null }
    const at = `${u.item_id}|${u.kind}|${u.candidate_id}`
    let rows = lists.get(at)
    if (!rows) {
      if (lists.size >= 64) lists.clear()
      rows = list.all(u.item_id, u.kind, u.candidate_id) as LineageRow[]
      lists.set(at, rows)
    }
    return lineageKey(rows, unitId)
  }
}

/**
 * Writes one annotator's labels of one dataset as a bundle another workspace can merge. Every
 * label travels, also those on unit versions an edit replaced and on deleted units: leaving
 * them out would lose a person's work in the receiving workspace. An earlier version is named
 * by its text and the texts on its way to the latest version; every version is also named by
 * its lineage, which is what a merge finds it by.
 */
export async function exportBundle(
  ws: Workspace,
  opts: BundleExport,
): Promise<{ file: string; labels: number }> {
  // One snapshot: the header's count and content hash must describe the very labels that follow.
  return oneSnapshot(ws.db, () => bundleFile(ws, opts))
}

interface BundleExport {
  datasetId: number
  annotatorId: number
  out: string
}

function bundleFile(ws: Workspace, opts: BundleExport): { file: string; labels: number } {
  const db = ws.db
  const dataset = getDataset(db, opts.datasetId)
  const annotator = db.prepare('SELECT name FROM annotators WHERE id = ?').get(opts.annotatorId) as
    | { name: string }
    | undefined
  if (!annotator) throw new Error(`No annotator with id ${opts.annotatorId}`)
  const contentHash = datasetContentHash(db, dataset.id)
  const total = bundleLabelCount(db, dataset.id, opts.annotatorId)
  const locate = earlierLocator(db)
  const lineage = lineageLocator(db)
  const history = bundleLabelHistory(db)
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    dataset: { name: dataset.name, contentHash, originHash: datasetOriginHash(db, dataset.id) },
    annotator: { name: annotator.name },
    exportedAt: new Date().toISOString(),
    labels: total,
    ...bundlePackage(db, dataset.id),
    ...readOf(db, dataset.id, opts.annotatorId),
  }
  let written = 0
  writeFileAtomically(opts.out, (sink) => {
    sink.write(`${JSON.stringify(header)}\n`)
    for (const r of bundleLabelRows(db, dataset.id, opts.annotatorId)) {
      const line: BundleLabel = {
        target: { ...targetKey(r, locate), lineage: lineage(r.unit_id) },
        verdict: r.verdict,
        evidence: parseJson(Evidence, r.evidence, 'labels.evidence'),
        note: r.note,
        seconds: r.seconds,
        guidelinesVersion: r.guidelines_version,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        history: history(r.target_id, opts.annotatorId).map((h) => ({
          ...h,
          evidence: parseJson(Evidence, h.evidence, 'label_history.evidence'),
        })),
      }
      sink.write(`${JSON.stringify(line)}\n`)
      written++
    }
  })
  return { file: opts.out, labels: written }
}

function readOf(db: Db, datasetId: number, annotatorId: number): Pick<BundleHeader, 'guidelinesRead'> {
  const read = guidelinesReadBy(db, datasetId).get(annotatorId)
  return read ? { guidelinesRead: read } : {}
}

function targetKey(r: BundleLabelRow, locate: ReturnType<typeof earlierLocator>): TargetKey {
  const base = { item: r.ext_id, variant: r.variant, kind: r.kind, unit: r.text }
  // Any version may have to be recreated on the other side, parts and all.
  const triplet = r.triplet !== null ? { triplet: parseJson(Triplet, r.triplet, 'units.triplet') } : {}
  if (r.superseded_by === null)
    return { ...base, occurrence: r.occ ?? 0, ...(r.deleted ? { deleted: true as const } : {}), ...triplet }
  return { ...base, ...locate(r.unit_id), ...triplet }
}
