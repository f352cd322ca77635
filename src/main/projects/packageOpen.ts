import { z } from 'zod'
import type { PackageRefresh } from '../../shared/packageRefresh'
import { countOf } from '../../shared/plural'
import { ServiceError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import { datasetContentHash } from '../export/contentHash'
import { datasetOriginHash, recordPackageOrigin } from '../export/datasetOrigin'
import { takeGuidelinesRead } from '../guidelines/guidelines'
import { packageLabelTarget } from '../labels/packageLabels'
import { ensureAnnotator } from '../store/repos/annotators'
import { createDataset, findDatasetByName } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { fileLines } from './lines'
import { markPackageControls } from './packageControls'
import { PACKAGE_FORMAT, PackageHeader, PackageItem } from './packageFormat'
import { insertPackageCandidates, insertPackageItem } from './packageItems'
import { openedFrom } from './packageOwner'
import { refreshPackage } from './packageRefresh'

export interface OpenReport {
  id: string
  dataset: string
  datasetId: number
  annotator: string
  items: number
  /** The package had been opened here before: nothing was changed. */
  alreadyOpen: boolean
  /** A newer package for the dataset this laptop already held: what it changed. */
  refreshed: PackageRefresh | null
}

function parse<T extends z.ZodType>(schema: T, line: string, where: string): z.infer<T> {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (e) {
    throw new ServiceError(
      'bad_input',
      `${where}: not valid JSON (${e instanceof Error ? e.message : String(e)})`,
    )
  }
  const r = schema.safeParse(value)
  if (!r.success)
    throw new ServiceError('bad_input', `${where}: ${z.prettifyError(r.error).replace(/\n/g, '; ')}`)
  return r.data
}

/** The header of a package file, and its item lines (read lazily, validated one by one). */
export function readPackage(file: string): {
  header: PackageHeader
  items: Generator<PackageItem>
  /** Closes the file when the items were not read to the end. */
  close(): void
} {
  let lines: Generator<{ line: string; number: number }>
  let first: IteratorResult<{ line: string; number: number }>
  try {
    lines = fileLines(file)
    first = lines.next()
  } catch (e) {
    throw new ServiceError(
      'bad_input',
      `Cannot read package ${file}: ${e instanceof Error ? e.message : String(e)}`,
    )
  }
  if (first.done || !first.value.line.includes(PACKAGE_FORMAT))
    throw new ServiceError('bad_input', `${file} is not a FactLab work package`)
  const header = parse(PackageHeader, first.value.line, `${file}:${first.value.number}`)
  function* items(): Generator<PackageItem> {
    let count = 0
    for (const { line, number } of lines) {
      count++
      yield parse(PackageItem, line, `${file}:${number}`)
    }
    if (count !== header.items)
      throw new ServiceError(
        'bad_input',
        `${file} announces ${countOf(header.items, 'item')} but holds ${count}: it looks truncated or edited. Nothing was opened`,
      )
  }
  return { header, items: items(), close: () => void lines.return(undefined) }
}

/**
 * Opens a package in this workspace (the annotator's laptop): the dataset is rebuilt and must
 * hash as the lead's did, the annotator is created, their items become their queue (a fixed
 * plan of one), and the guidelines arrive under the lead's version number so labels are stamped
 * with it. All in one transaction. Opening the same package again changes nothing; a newer
 * package of the same dataset for the same annotator updates the laptop in place
 * (packageRefresh.ts); a different dataset of the same name here is refused.
 */
export function openPackage(
  ws: Workspace,
  file: string,
  onProgress?: (done: number, total: number) => void,
): OpenReport {
  const { header, items, close } = readPackage(file)
  try {
    return openRead(ws, header, items, onProgress)
  } finally {
    close()
  }
}

function openRead(
  ws: Workspace,
  header: PackageHeader,
  items: Iterable<PackageItem>,
  onProgress?: (done: number, total: number) => void,
): OpenReport {
  const db = ws.db
  const short = (h: string) => h.slice(0, 12)
  const existing = findDatasetByName(db, header.dataset.name)
  if (existing) {
    // Opened here before: units edited since do not make it another dataset.
    const opened = db
      .prepare('SELECT 1 FROM package_opened WHERE id = ? AND dataset_id = ?')
      .get(header.id, existing.id)
    if (opened)
      return {
        id: header.id,
        dataset: existing.name,
        datasetId: existing.id,
        annotator: header.annotator.name,
        items: header.items,
        alreadyOpen: true,
        refreshed: null,
      }
    const owner = openedFrom(db, existing.id)
    // The same lead's dataset (its import, which edits never change) opened from a package before.
    const sameLineage =
      owner !== null &&
      header.dataset.originHash !== undefined &&
      datasetOriginHash(db, existing.id) === header.dataset.originHash
    if (owner && sameLineage) {
      if (owner.annotator !== header.annotator.name)
        throw new ServiceError(
          'conflict',
          `This workspace holds ${owner.annotator}'s work package for "${header.dataset.name}"; this package is ${header.annotator.name}'s. One laptop's workspace is one annotator's: open it in a fresh workspace (File › New). Nothing was changed`,
        )
      const refreshed = db.transaction(() => {
        const r = refreshPackage(ws, header, items, existing.id, owner)
        db.prepare(
          'INSERT INTO package_opened (id, dataset_id, annotator_id, dataset_hash, opened_at) VALUES (?, ?, ?, ?, ?)',
        ).run(header.id, existing.id, owner.annotatorId, header.dataset.contentHash, now())
        return r
      })()
      return {
        id: header.id,
        dataset: existing.name,
        datasetId: existing.id,
        annotator: header.annotator.name,
        items: header.items,
        alreadyOpen: false,
        refreshed,
      }
    }
    const hash = datasetContentHash(db, existing.id)
    if (hash !== header.dataset.contentHash)
      throw new ServiceError(
        'conflict',
        `This workspace already holds a different dataset named "${header.dataset.name}" (content ${short(hash)}; the package's is ${short(header.dataset.contentHash)}). Open the package in a fresh workspace (File › New) or rename that dataset. Nothing was changed`,
      )
    throw new ServiceError(
      'conflict',
      `This workspace already holds dataset "${header.dataset.name}" with the same content, from another source: a package is for a fresh workspace (File › New). Nothing was changed`,
    )
  }
  const datasetId = db.transaction(() => {
    const ds = createDataset(db, {
      name: header.dataset.name,
      labelSchema: header.dataset.labelSchema,
      source: { format: 'factlab-package', file: header.id, importedAt: now() },
    })
    db.prepare('UPDATE datasets SET settings = ? WHERE id = ?').run(
      JSON.stringify(header.dataset.settings),
      ds.id,
    )
    let done = 0
    for (const item of items) {
      if (++done % 500 === 0) onProgress?.(done, header.items)
      const itemId = insertPackageItem(ws, ds.id, item, item.position)
      const candidateIds = new Map<string, number>()
      insertPackageCandidates(ws, itemId, item.candidates, candidateIds)
      for (const u of item.units)
        ws.content.insertUnit(itemId, {
          kind: u.kind,
          text: u.text,
          triplet: u.triplet,
          position: u.position,
          candidateId: u.variant === null ? null : (candidateIds.get(u.variant) ?? null),
        })
    }
    const hash = datasetContentHash(db, ds.id)
    if (hash !== header.dataset.contentHash)
      throw new ServiceError(
        'bad_input',
        `The package's dataset does not hash as the lead's did (${short(hash)} against ${short(header.dataset.contentHash)}): it was changed on the way. Nothing was opened`,
      )
    // The laptop's bundles then name the lead's import, however either side edits units later.
    recordPackageOrigin(db, ds.id, header.dataset.originHash ?? header.dataset.contentHash)
    const me = ensureAnnotator(db, header.annotator.name).id
    const at = now()
    // The lead's k and seed, not made-up ones: the laptop's screens and `assign` then show the
    // plan the lead set. The queue is the same either way (one person labels a target once),
    // but after a merge of another laptop's bundle, k keeps targets open that still need a label.
    db.prepare(
      `INSERT INTO dataset_plans (dataset_id, k, policy, seed, control_rate, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      ds.id,
      header.plan.k,
      header.assignment ? 'fixed' : 'open',
      header.plan.seed ?? 1,
      header.controls.length > 0 ? header.plan.controlRate : 0,
      at,
    )
    markPackageControls(db, ds.id, header.controls)
    db.prepare('INSERT INTO plan_annotators (dataset_id, annotator_id) VALUES (?, ?)').run(ds.id, me)
    if (header.assignment) {
      const add = db.prepare(
        `INSERT INTO assignments (annotator_id, dataset_id, item_id) SELECT ?, ?, id FROM items WHERE dataset_id = ? AND ext_id = ?`,
      )
      for (const ext of header.assignment) add.run(me, ds.id, ds.id, ext)
    }
    if (header.guidelines)
      db.prepare(
        'INSERT INTO guidelines (dataset_id, version, body, author, created_at) VALUES (?, ?, ?, ?, ?)',
      ).run(ds.id, header.guidelines.version, header.guidelines.body, 'lead (package)', at)
    takeOwnLabels(ws, ds.id, me, header)
    // Read already at the lead's: the laptop does not ask again for the same version.
    if (header.annotator.guidelinesRead) takeGuidelinesRead(db, ds.id, me, header.annotator.guidelinesRead)
    db.prepare(
      'INSERT INTO package_opened (id, dataset_id, annotator_id, dataset_hash, opened_at) VALUES (?, ?, ?, ?, ?)',
    ).run(header.id, ds.id, me, header.dataset.contentHash, at)
    return ds.id
  })()
  return {
    id: header.id,
    dataset: header.dataset.name,
    datasetId,
    annotator: header.annotator.name,
    items: header.items,
    alreadyOpen: false,
    refreshed: null,
  }
}

/**
 * Her own labels from the lead's workspace, on the same targets, with the time and version they
 * were given under: her laptop shows them done, and a bundle sends back the same state unchanged.
 */
function takeOwnLabels(ws: Workspace, datasetId: number, me: number, header: PackageHeader): void {
  const find = packageLabelTarget(ws.db)
  const from = `package ${header.id}`
  for (const l of header.labels) {
    const targetId = find(datasetId, l)
    if (targetId === null) continue
    ws.labels.save(
      {
        targetId,
        annotatorId: me,
        verdict: l.verdict,
        evidence: l.evidence,
        note: l.note,
        seconds: l.seconds,
        ...(l.guidelinesVersion !== null ? { guidelinesVersion: l.guidelinesVersion } : {}),
      },
      'set',
      l.updatedAt,
      { at: now(), from, versionUnknown: l.guidelinesVersion === null },
    )
  }
}
