import type { Migration } from './types'

/**
 * What a merge needs to know two copies of a dataset came from one import, however either was
 * edited since (export/datasetOrigin.ts):
 * - `datasets.origin`: JSON, either the largest item, candidate and unit ids the import wrote
 *   (so the dataset as imported can be told from what was added later), or the origin hash a
 *   work package carried; NULL for datasets made before this migration.
 * - `units.origin_text`: the text a unit had before its first edit in place (an unlabelled unit
 *   is rewritten, not versioned), so the first wording is never forgotten.
 */
export const migration0240: Migration = {
  version: 240,
  name: 'merge-origins',
  up: `
ALTER TABLE datasets ADD COLUMN origin TEXT;
ALTER TABLE units ADD COLUMN origin_text TEXT;
`,
}
