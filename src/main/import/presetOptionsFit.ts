import type { RowConverter } from './normalized'

/*
 * The settings only one layout reads: RefChecker's second file and SummEval's rating dimension.
 * Given for rows another layout reads, they would be dropped without a word; the import refuses
 * instead, so the person learns the file was not read as they thought.
 */

export interface LayoutSettings {
  secondFile?: string
  presetOptions?: { dimension?: string }
}

/** Why these settings do not fit the layout the rows are read with; null when they do. */
export function layoutSettingsMisfit(reading: RowConverter['name'], settings: LayoutSettings): string | null {
  const as = reading === 'mapping' ? 'with your column mapping' : `as ${reading}`
  if (settings.secondFile !== undefined && reading !== 'refchecker')
    return `A second file (the question and reference of each id) is read only with RefChecker files; this file is read ${as}`
  if (settings.presetOptions?.dimension !== undefined && reading !== 'summeval')
    return `A rating dimension is chosen only for SummEval files; this file is read ${as}`
  return null
}
