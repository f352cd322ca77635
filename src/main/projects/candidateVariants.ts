import { candidateNameIndex } from '../metrics/candidateNames'
import type { Db } from '../store/connection'
import { datasetVariants } from '../store/repos/datasets'
import type { TargetPart } from './dashboardBlocks'
import { type VariantCodes, variantCodes } from './variantCodes'

/**
 * The variant of each candidate the dataset's targets name, as codes. Read as one number per
 * candidate over the range of the targets' items (the candidates' (item, variant) index, as the
 * metrics' target rows read them): at a million targets the 100,000 rows of an id and a string,
 * joined with the items and sorted, had cost the Project view a fifth of a second. The codes
 * follow the dataset's variants by first candidate (`dataset_variants`, kept by triggers), the
 * order reading the candidates by id gives. Read that way instead wherever a target's candidate
 * is not found.
 */
export function candidateVariants(db: Db, datasetId: number, targets: readonly TargetPart[]): VariantCodes {
  return packedVariants(db, datasetId, targets) ?? variantCodes(candidateRows(db, datasetId))
}

function packedVariants(db: Db, datasetId: number, targets: readonly TargetPart[]): VariantCodes | null {
  let iMin = Number.POSITIVE_INFINITY
  let iMax = Number.NEGATIVE_INFINITY
  let cMin = Number.POSITIVE_INFINITY
  let cMax = Number.NEGATIVE_INFINITY
  for (const part of targets)
    for (let i = 0; i < part.n; i++) {
      if (part.dataset !== null && part.dataset[i] !== datasetId) continue
      const item = part.item[i]!
      const c = part.candidate[i]!
      if (item < iMin) iMin = item
      if (item > iMax) iMax = item
      // No candidate: the blocks hold a null as 0 (candidate ids start at 1).
      if (c <= 0) continue
      if (c < cMin) cMin = c
      if (c > cMax) cMax = c
    }
  const names = datasetVariants(db, datasetId)
  if (cMax < cMin) return null
  // Candidates of other datasets' items in the range, with a variant of the same name, may be coded too: no target of this one names them.
  const code = candidateNameIndex(db, names, [iMin, iMax], [cMin, cMax])
  if (!code) return null
  for (const part of targets)
    for (let i = 0; i < part.n; i++) {
      if (part.dataset !== null && part.dataset[i] !== datasetId) continue
      const c = part.candidate[i]!
      if (c > 0 && code[c - cMin]! < 0) return null
    }
  return { names, lo: cMin, code }
}

function candidateRows(db: Db, datasetId: number): [number, string][] {
  return db
    .prepare(
      // By id: the variants come in the order of their first answer, as metrics gives them.
      'SELECT c.id, c.variant FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY c.id',
    )
    .raw()
    .all(datasetId) as [number, string][]
}
