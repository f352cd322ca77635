import { z } from 'zod'
import { countOf } from './plural'

/** What a newer package of the same lineage changed on the laptop that held the older one. */
export const PackageRefresh = z.object({
  itemsAdded: z.number().int().nonnegative(),
  unitsAdded: z.number().int().nonnegative(),
  unitsUpdated: z.number().int().nonnegative(),
  unitsRemoved: z.number().int().nonnegative(),
  /** The lead's guidelines version that arrived with it; null when the guidelines were the same. */
  guidelinesVersion: z.number().int().positive().nullable(),
})
export type PackageRefresh = z.infer<typeof PackageRefresh>

/** "3 units updated, guidelines v2": the window and the CLI say it alike. */
export function describeRefresh(r: PackageRefresh): string {
  const parts = [
    r.itemsAdded > 0 ? `${countOf(r.itemsAdded, 'item')} added` : null,
    r.unitsUpdated > 0 ? `${countOf(r.unitsUpdated, 'unit')} updated` : null,
    r.unitsAdded > 0 ? `${countOf(r.unitsAdded, 'unit')} added` : null,
    r.unitsRemoved > 0 ? `${countOf(r.unitsRemoved, 'unit')} removed` : null,
    r.guidelinesVersion !== null ? `guidelines v${r.guidelinesVersion}` : null,
  ].filter((p): p is string => p !== null)
  return parts.length > 0 ? parts.join(', ') : 'nothing to change'
}
