import { z } from 'zod'

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

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "3 units updated, guidelines v2": the window and the CLI say it alike. */
export function describeRefresh(r: PackageRefresh): string {
  const parts = [
    r.itemsAdded > 0 ? `${count(r.itemsAdded, 'item')} added` : null,
    r.unitsUpdated > 0 ? `${count(r.unitsUpdated, 'unit')} updated` : null,
    r.unitsAdded > 0 ? `${count(r.unitsAdded, 'unit')} added` : null,
    r.unitsRemoved > 0 ? `${count(r.unitsRemoved, 'unit')} removed` : null,
    r.guidelinesVersion !== null ? `guidelines v${r.guidelinesVersion}` : null,
  ].filter((p): p is string => p !== null)
  return parts.length > 0 ? parts.join(', ') : 'nothing to change'
}
