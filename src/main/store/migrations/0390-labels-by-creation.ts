import type { Migration } from './types'

/**
 * The Project view's "labels a day over the last week" counts the verdicts first placed since a
 * time. Without an index on that time it read every label of the workspace (seconds at a million
 * targets, with the server's one thread blocked meanwhile); the range of the last week is now
 * read alone, whatever the size of the project.
 */
export const migration0390: Migration = {
  version: 390,
  name: 'labels-by-creation',
  up: `
CREATE INDEX IF NOT EXISTS labels_created ON labels (created_at, target_id, annotator_id) WHERE verdict IS NOT NULL;
`,
}
