import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { z } from 'zod'
import { EvidenceSpan } from '../../shared/domain'
import { ServiceError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import { datasetContentHash } from '../export/contentHash'
import { datasetOriginHash, keepOrigin } from '../export/datasetOrigin'
import { writeFileAtomically } from '../export/sink'
import { guidelinesReadBy } from '../guidelines/guidelines'
import { CURRENT_OCCURRENCES, ownCurrentLabels } from '../labels/packageLabels'
import { labelledBy } from '../labels/sql'
import type { Db } from '../store/connection'
import { ensureAnnotator } from '../store/repos/annotators'
import { getDataset } from '../store/repos/datasets'
import { now, parseJson } from '../store/repos/rows'
import { oneSnapshot } from '../store/statements'
import { PACKAGE_FORMAT, PACKAGE_VERSION, type PackageHeader, type PackageItem } from './packageFormat'
import { refuseLeadWorkOnLaptop } from './packageOwner'
import { getPlan } from './plan'

const Json = z.record(z.string(), z.unknown())

export interface PackageReport {
  id: string
  file: string
  annotator: string
  items: number
  assignedItems: number
  targets: number
}

/** Reads a dataset item by item (current units only) in the shape packages carry. */
export function* packageItems(db: Db, datasetId: number): Generator<PackageItem> {
  const items = db.prepare(
    'SELECT id, ext_id, position, question, reference, metadata FROM items WHERE dataset_id = ? ORDER BY position, id',
  )
  const candidates = db.prepare(
    'SELECT variant, text, origin, metadata FROM candidates WHERE item_id = ? ORDER BY id',
  )
  const units = db.prepare(
    `SELECT u.kind, c.variant, u.text, u.triplet, u.position, COALESCE(u.lineage_id, u.id) AS lineage, u.origin_text
     FROM units u LEFT JOIN candidates c ON c.id = u.candidate_id
     WHERE u.item_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY u.kind, c.id, u.position, u.id`,
  )
  // Earlier versions of the item's units: their wordings let a laptop find what the lead edited.
  const earlier = db.prepare(
    `SELECT COALESCE(lineage_id, id) AS lineage, text, origin_text FROM units
     WHERE item_id = ? AND superseded_by IS NOT NULL ORDER BY id`,
  )
  for (const i of items.iterate(datasetId) as IterableIterator<{
    id: number
    ext_id: string
    position: number
    question: string | null
    reference: string
    metadata: string
  }>) {
    const wordings = new Map<number, string[]>()
    for (const e of earlier.all(i.id) as { lineage: number; text: string; origin_text: string | null }[])
      wordings.set(e.lineage, [
        ...(wordings.get(e.lineage) ?? []),
        ...(e.origin_text ? [e.origin_text] : []),
        e.text,
      ])
    yield {
      extId: i.ext_id,
      position: i.position,
      question: i.question,
      reference: i.reference,
      metadata: parseJson(Json, i.metadata, 'items.metadata'),
      candidates: (
        candidates.all(i.id) as { variant: string; text: string; origin: string; metadata: string }[]
      ).map((c) => ({ ...c, metadata: parseJson(Json, c.metadata, 'candidates.metadata') })),
      units: (
        units.all(i.id) as {
          kind: PackageItem['units'][number]['kind']
          variant: string | null
          text: string
          triplet: string | null
          position: number
          lineage: number
          origin_text: string | null
        }[]
      ).map(({ lineage, origin_text, ...u }) => {
        const was = [
          ...new Set([...(wordings.get(lineage) ?? []), ...(origin_text ? [origin_text] : [])]),
        ].filter((w) => w !== u.text)
        return {
          ...u,
          variant: u.kind === 'fact' ? null : u.variant,
          triplet:
            u.triplet === null ? null : (JSON.parse(u.triplet) as PackageItem['units'][number]['triplet']),
          ...(was.length > 0 ? { was } : {}),
        }
      }),
    }
  }
}

/**
 * Writes one annotator's package and records it as handed out. Under a fixed plan the
 * annotator must be one of the named people and carries their items; under an open plan
 * (or none) every item.
 */
export function exportPackage(
  ws: Workspace,
  opts: {
    datasetId: number
    annotator: string
    out: string
    onProgress?: (done: number, total: number) => void
  },
): PackageReport {
  const db = ws.db
  // Here too, not only in the call: the CLI writes packages without it, for its progress bar.
  refuseLeadWorkOnLaptop(db, opts.datasetId, 'package')
  // The packages handed out are tracked by id: writing over one would lose the package that was
  // sent (a bundle made in it would name a package no file holds any more), as a bundle refuses.
  if (existsSync(opts.out))
    throw new ServiceError(
      'bad_input',
      `${opts.out} already exists: choose another file name so the package it holds is not overwritten`,
    )
  const plan = getPlan(db, opts.datasetId)
  const dataset = getDataset(db, opts.datasetId)
  const who = db.prepare('SELECT id, name FROM annotators WHERE name = ?').get(opts.annotator.trim()) as
    | { id: number; name: string }
    | undefined
  if (plan.policy === 'fixed' && !plan.annotators.some((a) => a.name === who?.name))
    throw new ServiceError(
      'bad_input',
      `"${opts.annotator}" is not one of the annotators the plan splits "${dataset.name}" among (${plan.annotators.map((a) => a.name).join(', ')}): no package was written`,
    )
  const annotatorId = who?.id ?? ensureAnnotator(db, opts.annotator).id
  keepOrigin(db, opts.datasetId)
  // Read as of one moment (another process may commit meanwhile): the header's content hash and
  // counts describe the very items written; the package is recorded once the file is whole.
  const { header, total, assignment, targets } = oneSnapshot(db, () =>
    writePackage(db, opts, plan, dataset, annotatorId),
  )
  db.prepare(
    `INSERT INTO packages (id, dataset_id, annotator_id, dataset_hash, targets, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(header.id, opts.datasetId, annotatorId, header.dataset.contentHash, targets, header.createdAt)
  return {
    id: header.id,
    file: opts.out,
    annotator: header.annotator.name,
    items: total,
    assignedItems: assignment?.length ?? total,
    targets,
  }
}

/** Her own labels as the header carries them. */
function ownLabels(db: Db, datasetId: number, annotatorId: number): PackageHeader['labels'] {
  return ownCurrentLabels(db, datasetId, annotatorId).map((l) => ({
    ...l,
    kind: l.kind as PackageHeader['labels'][number]['kind'],
    evidence: parseJson(z.array(EvidenceSpan), l.evidence, 'labels.evidence'),
  }))
}

function readBy(
  db: Db,
  datasetId: number,
  annotatorId: number,
): Pick<PackageHeader['annotator'], 'guidelinesRead'> {
  const read = guidelinesReadBy(db, datasetId).get(annotatorId)
  return read ? { guidelinesRead: read } : {}
}

/** The package file, read in one snapshot; what the caller records and reports of it. */
function writePackage(
  db: Db,
  opts: Parameters<typeof exportPackage>[1],
  plan: ReturnType<typeof getPlan>,
  dataset: ReturnType<typeof getDataset>,
  annotatorId: number,
): { header: PackageHeader; total: number; assignment: string[] | null; targets: number } {
  const assignment =
    plan.policy === 'fixed'
      ? (
          db
            .prepare(
              `SELECT i.ext_id AS e FROM assignments a JOIN items i ON i.id = a.item_id
               WHERE a.annotator_id = ? AND a.dataset_id = ? ORDER BY i.position`,
            )
            .all(annotatorId, opts.datasetId) as { e: string }[]
        ).map((r) => r.e)
      : null
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM items WHERE dataset_id = ?').get(opts.datasetId) as { n: number }
  ).n
  const guidelines = db
    .prepare('SELECT version, body FROM guidelines WHERE dataset_id = ? ORDER BY version DESC LIMIT 1')
    .get(opts.datasetId) as { version: number; body: string } | undefined
  const settings = parseJson(
    Json,
    (db.prepare('SELECT settings FROM datasets WHERE id = ?').get(opts.datasetId) as { settings: string })
      .settings,
    'datasets.settings',
  )
  const header: PackageHeader = {
    format: PACKAGE_FORMAT,
    version: PACKAGE_VERSION,
    id: randomUUID(),
    dataset: {
      name: dataset.name,
      labelSchema: dataset.labelSchema,
      settings,
      contentHash: datasetContentHash(db, opts.datasetId),
      originHash: datasetOriginHash(db, opts.datasetId),
    },
    annotator: { name: opts.annotator.trim(), ...readBy(db, opts.datasetId, annotatorId) },
    plan: { k: plan.k, policy: plan.policy, controlRate: plan.controlRate, seed: plan.seed },
    guidelines: guidelines ?? null,
    assignment,
    // Only the controls this person's queue would still serve her (projects/queue.ts): the laptop
    // holds her labels alone, so it counts nobody else's towards k and would serve a control
    // others already took to k, standing out among its settled neighbours; one she answered is no
    // work for her. Under a fixed plan, only those in her items: a control marked elsewhere would
    // name itself one.
    controls: db
      .prepare(
        `WITH current AS (${CURRENT_OCCURRENCES})
         SELECT i.ext_id AS item, c.variant, u.kind, u.text AS unit, current.occ AS occurrence
         FROM controls x JOIN targets t ON t.id = x.target_id
         JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
         JOIN current ON current.id = u.id
         WHERE x.dataset_id = @ds AND u.superseded_by IS NULL AND u.deleted_at IS NULL
           AND t.labels_n < @k AND NOT ${labelledBy('t.id', '@me')}
           AND (@fixed = 0 OR EXISTS (SELECT 1 FROM assignments a
             WHERE a.dataset_id = @ds AND a.item_id = t.item_id AND a.annotator_id = @me))
         ORDER BY t.id`,
      )
      .all({
        ds: opts.datasetId,
        fixed: assignment ? 1 : 0,
        me: annotatorId,
        // Without a plan everyone labels everything: no k closes a control.
        k: plan.planned ? plan.k : Number.MAX_SAFE_INTEGER,
      }) as PackageHeader['controls'],
    labels: ownLabels(db, opts.datasetId, annotatorId),
    items: total,
    createdAt: now(),
  }
  let done = 0
  writeFileAtomically(opts.out, (sink) => {
    sink.write(`${JSON.stringify(header)}\n`)
    for (const item of packageItems(db, opts.datasetId)) {
      sink.write(`${JSON.stringify(item)}\n`)
      if (++done % 500 === 0) opts.onProgress?.(done, total)
    }
  })
  opts.onProgress?.(total, total)
  const targets = (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM targets t JOIN units u ON u.id = t.unit_id
         WHERE t.dataset_id = @ds AND u.superseded_by IS NULL AND u.deleted_at IS NULL
           AND (@fixed = 0 OR EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = t.item_id AND a.annotator_id = @me))`,
      )
      .get({ ds: opts.datasetId, fixed: assignment ? 1 : 0, me: annotatorId }) as { n: number }
  ).n
  return { header, total, assignment, targets }
}
