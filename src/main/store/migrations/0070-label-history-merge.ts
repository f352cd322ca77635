import type { Migration } from './types'

/**
 * A merged label keeps its own action in the history ('set', 'clear', 'import', as it was given
 * on the other laptop); the merge that brought it is recorded beside it: when, and from which
 * bundle. Before this, merged rows read 'merge' and the original action was lost. Rows written
 * before the upgrade keep their 'merge' action: the history is append-only.
 */
export const migration0070: Migration = {
  version: 70,
  name: 'label-history-merge',
  up: `
ALTER TABLE label_history ADD COLUMN merged_at TEXT;
ALTER TABLE label_history ADD COLUMN merged_from TEXT;
-- Its own trigger, so the columns stay append-only whatever later migrations do to the table's
-- general no-update trigger (0080 narrows that one to the columns it knew of).
CREATE TRIGGER label_history_merge_no_update BEFORE UPDATE OF merged_at, merged_from ON label_history
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;
`,
}
