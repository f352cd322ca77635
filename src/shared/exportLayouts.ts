import { EXPORT_FORMAT_NAMES, type ExportFormatName } from './contract/exports'
import { FAAF_SCHEMA, type LabelSchema, REFCHECKER_SCHEMA, UNIT_KINDS, type UnitKind } from './labelSchemas'
import { countOf } from './plural'

/**
 * What each export layout has a place for. The targets layout (jsonl, csv, parquet) writes one row
 * per unit and answer, whatever the unit and the label. The two release layouts are the published
 * datasets' own formats: WikiEvalFacts holds facts labelled true / false / not clear in the three
 * answers of its columns, RefChecker's release holds claim triplets labelled entailment / neutral /
 * contradiction. Written for another dataset they would drop its units or labels and still look
 * complete, or not import at all, so such an export is refused instead (datasetExport.ts), naming
 * the layouts that can carry it.
 */
interface LayoutPlace {
  kinds: readonly UnitKind[]
  /** The verdicts the layout's labels can be (and its import reads back); absent: any schema. */
  labels?: { name: string; values: readonly string[] }
  /** Answer variants the layout has a column each for, which every item must have. */
  variants?: readonly string[]
}

const TARGETS: LayoutPlace = { kinds: UNIT_KINDS }
const WIKIEVALFACTS: LayoutPlace = {
  kinds: ['fact'],
  labels: { name: 'FaaF', values: FAAF_SCHEMA.values },
  variants: ['answer', 'ungrounded_answer', 'poor_answer'],
}

export const LAYOUT_PLACES: Record<ExportFormatName, LayoutPlace> = {
  jsonl: TARGETS,
  csv: TARGETS,
  parquet: TARGETS,
  'wikievalfacts-csv': WIKIEVALFACTS,
  'wikievalfacts-jsonl': WIKIEVALFACTS,
  'refchecker-json': {
    kinds: ['triplet'],
    labels: { name: 'RefChecker', values: REFCHECKER_SCHEMA.values },
  },
}

/** What a dataset holds that a layout must carry. */
export interface DatasetShape {
  /** The kinds of its current units. */
  kinds: readonly UnitKind[]
  schema: LabelSchema
  /** How many of its items have no answer of this variant. */
  itemsWithout(variant: string): number
}

const list = (xs: readonly string[]) => xs.join(', ')

/** Why `format` cannot carry the dataset ("that layout holds …"), or null when it can. */
export function layoutMisfit(format: ExportFormatName, shape: DatasetShape): string | null {
  const place = LAYOUT_PLACES[format]
  const lost = shape.kinds.filter((k) => !place.kinds.includes(k))
  if (lost.length > 0)
    return `that layout holds ${list(place.kinds)} units only, and this dataset has ${list(lost)} units`
  const labels = place.labels
  const { schema } = shape
  if (labels && schema.type === 'numeric')
    return `that layout holds ${labels.name} labels (${list(labels.values)}), and this dataset's labels are numeric scores`
  const foreign =
    labels && schema.type === 'categorical' ? schema.values.filter((v) => !labels.values.includes(v)) : []
  if (labels && foreign.length > 0)
    return `that layout holds ${labels.name} labels (${list(labels.values)}), and this dataset's labels include ${list(foreign)}`
  for (const v of place.variants ?? []) {
    const n = shape.itemsWithout(v)
    if (n > 0)
      return `that layout needs the answers ${list(place.variants!)} in every item, and ${countOf(n, 'item has', 'items have')} no "${v}" answer`
  }
  return null
}

/** The layouts that can carry the dataset, in the menu's order. */
export function layoutsThatFit(shape: DatasetShape): ExportFormatName[] {
  return EXPORT_FORMAT_NAMES.filter((f) => layoutMisfit(f, shape) === null)
}
