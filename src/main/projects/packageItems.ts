import type { Workspace } from '../app/workspace'
import type { PackageItem } from './packageFormat'

/**
 * A package's items and answers written into the laptop's workspace, the same way whether the
 * package is opened on a fresh workspace (packageOpen.ts) or refreshes an older one
 * (packageRefresh.ts). In the caller's transaction.
 */

/** Inserts a package's item (its texts and metadata) at a position; returns the new item's id. */
export function insertPackageItem(
  ws: Workspace,
  datasetId: number,
  item: PackageItem,
  position: number,
): number {
  return ws.content.insertItem(
    datasetId,
    { extId: item.extId, question: item.question, reference: item.reference, metadata: item.metadata },
    position,
  )
}

/**
 * Inserts the item's answers whose variant `ids` does not hold yet, and records their ids there,
 * so the units that follow find their answer by variant.
 */
export function insertPackageCandidates(
  ws: Workspace,
  itemId: number,
  candidates: PackageItem['candidates'],
  ids: Map<string, number>,
): void {
  for (const c of candidates)
    if (!ids.has(c.variant))
      ids.set(
        c.variant,
        ws.content.insertCandidate(itemId, {
          variant: c.variant,
          text: c.text,
          origin: c.origin,
          metadata: c.metadata,
        }),
      )
}
