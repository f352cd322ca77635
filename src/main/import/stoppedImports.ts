import { ServiceError } from '../app/errors'
import type { Db } from '../store/connection'
import { discardDataset, isAbandoned, isFilling } from './hidden'

/**
 * Imports that stopped part-way and could not take their rows back (a full disk refuses the
 * withdrawal too). Their dataset stays hidden, so nobody labels half a file; these are shown in
 * the Datasets view and `factlab datasets` so the person knows the space is taken and can
 * withdraw it once there is room, rather than finding the dataset name taken by an import they
 * cannot see. An import running now (here or in another live process) is not one of them.
 */
export interface StoppedImport {
  datasetId: number
  name: string
  /** Items it had written before it stopped. */
  items: number
  /** Items the file holds, when that was cheap to know as it started (rowTotal.ts); else null. */
  itemsInFile: number | null
  /** The file (or files) it was reading, as recorded when it started. */
  file: string | null
  startedAt: string | null
}

interface Row {
  id: number
  name: string
  items: number
  itemsInFile: number | null
  source: string | null
  pid: number | null
  host: string | null
  startedAt: string | null
}

export function stoppedImports(db: Db): StoppedImport[] {
  const rows = db
    .prepare(
      `SELECT d.id, d.name, d.source, i.pid, i.host, i.started_at AS startedAt,
         (SELECT COUNT(*) FROM items WHERE dataset_id = d.id) AS items, n.items AS itemsInFile
       FROM datasets d LEFT JOIN dataset_imports i ON i.dataset_id = d.id
         LEFT JOIN dataset_import_totals n ON n.dataset_id = d.id
       WHERE d.state = 'importing' ORDER BY d.id`,
    )
    .all() as Row[]
  return rows
    .filter((r) => {
      const owner = r.pid === null || r.host === null ? null : { pid: r.pid, host: r.host }
      return owner?.pid === process.pid ? !isFilling(r.id) : isAbandoned(owner)
    })
    .map((r) => ({
      datasetId: r.id,
      name: r.name,
      items: r.items,
      itemsInFile: r.itemsInFile,
      file: fileOf(r.source),
      startedAt: r.startedAt,
    }))
}

function fileOf(source: string | null): string | null {
  if (source === null) return null
  try {
    const parsed = JSON.parse(source) as { file?: unknown }
    return typeof parsed.file === 'string' ? parsed.file : null
  } catch {
    return null
  }
}

/** Withdraws a stopped import (its hidden rows); refuses an import still under way. */
export function withdrawStoppedImport(db: Db, datasetId: number): { name: string; items: number } {
  const found = stoppedImports(db).find((s) => s.datasetId === datasetId)
  if (!found)
    throw new ServiceError(
      'not_found',
      `No stopped import with id ${datasetId}: it was withdrawn already, or it is still running`,
    )
  discardDataset(db, datasetId)
  return { name: found.name, items: found.items }
}
