import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { ServiceError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import { datasetContentHash } from '../export/contentHash'
import { ensureAnnotator } from '../store/repos/annotators'
import { createDataset, findDatasetByName } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { PACKAGE_FORMAT, PackageHeader, PackageItem } from './packageFormat'

export interface OpenReport {
  id: string
  dataset: string
  datasetId: number
  annotator: string
  items: number
  /** The package had been opened here before: nothing was changed. */
  alreadyOpen: boolean
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

export function readPackage(file: string): { header: PackageHeader; items: PackageItem[] } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new ServiceError(
      'bad_input',
      `Cannot read package ${file}: ${e instanceof Error ? e.message : String(e)}`,
    )
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '')
  if (!lines[0]?.includes(PACKAGE_FORMAT))
    throw new ServiceError('bad_input', `${file} is not a FactLab work package`)
  const header = parse(PackageHeader, lines[0], `${file}:1`)
  const items = lines.slice(1).map((l, i) => parse(PackageItem, l, `${file}:${i + 2}`))
  if (items.length !== header.items)
    throw new ServiceError(
      'bad_input',
      `${file} announces ${header.items} items but holds ${items.length}: it looks truncated or edited. Nothing was opened`,
    )
  return { header, items }
}

/**
 * Opens a package in this workspace (the annotator's laptop): the dataset is rebuilt and must
 * hash as the lead's did, the annotator is created, their items become their queue (a fixed
 * plan of one), and the guidelines arrive under the lead's version number so labels are stamped
 * with it. All in one transaction. Opening the same package again changes nothing; a different
 * dataset of the same name here is refused.
 */
export function openPackage(ws: Workspace, file: string): OpenReport {
  const { header, items } = readPackage(file)
  const db = ws.db
  const short = (h: string) => h.slice(0, 12)
  const existing = findDatasetByName(db, header.dataset.name)
  if (existing) {
    const hash = datasetContentHash(db, existing.id)
    if (hash !== header.dataset.contentHash)
      throw new ServiceError(
        'conflict',
        `This workspace already holds a different dataset named "${header.dataset.name}" (content ${short(hash)}; the package's is ${short(header.dataset.contentHash)}). Open the package in a fresh workspace (File › New) or rename that dataset. Nothing was changed`,
      )
    const opened = db.prepare('SELECT 1 FROM package_opened WHERE id = ?').get(header.id)
    if (opened)
      return {
        id: header.id,
        dataset: existing.name,
        datasetId: existing.id,
        annotator: header.annotator.name,
        items: items.length,
        alreadyOpen: true,
      }
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
    for (const item of items) {
      const itemId = ws.content.insertItem(
        ds.id,
        { extId: item.extId, question: item.question, reference: item.reference, metadata: item.metadata },
        item.position,
      )
      const candidateIds = new Map<string, number>()
      for (const c of item.candidates)
        candidateIds.set(
          c.variant,
          ws.content.insertCandidate(itemId, {
            variant: c.variant,
            text: c.text,
            origin: c.origin,
            metadata: c.metadata,
          }),
        )
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
    const me = ensureAnnotator(db, header.annotator.name).id
    const at = now()
    db.prepare(
      `INSERT INTO dataset_plans (dataset_id, k, policy, seed, control_rate, updated_at) VALUES (?, 1, ?, 1, 0, ?)`,
    ).run(ds.id, header.assignment ? 'fixed' : 'open', at)
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
    items: items.length,
    alreadyOpen: false,
  }
}
