import type { Migration } from './types'

/**
 * The Project view's "labels past k" ranks each label of a target by when it was first placed
 * (then by id), for the targets people labelled more than k times. Read from the labels' rows,
 * that rank was a window sort over rows fetched one page each: about a fifth of the view's cold
 * open at a million targets. This index holds a target's labels in exactly that order, so the
 * rank is read in index order and nothing is sorted. It costs about 43 bytes a label on disk, as
 * migration 0390's index does (78 MB at the bench's 1.8 million labels), and a new label one more
 * index entry to write.
 */
export const migration0610: Migration = {
  version: 610,
  name: 'labels-by-rank',
  up: `
CREATE INDEX IF NOT EXISTS labels_rank ON labels (target_id, created_at, id, annotator_id) WHERE verdict IS NOT NULL;
`,
}
