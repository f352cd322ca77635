import type { Migration } from './types'

/**
 * A label merged from a bundle that named no guidelines version (its laptop had none) was stamped
 * with the lead's latest version, one its annotator never saw. The writer now inserts such a
 * history row with version 0, which this trigger turns into NULL ("not known") instead of the
 * stamp; the stamp-once guard lets that one change through. Labels themselves already take NULL
 * (a write of that column alone fires no stamp).
 */
export const migration0450: Migration = {
  version: 450,
  name: 'guidelines-version-unknown',
  up: `
DROP TRIGGER IF EXISTS label_history_stamp_once;
CREATE TRIGGER label_history_stamp_once BEFORE UPDATE OF guidelines_version ON label_history
  WHEN old.guidelines_version IS NOT NULL AND old.guidelines_version <> 0
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;
DROP TRIGGER IF EXISTS label_history_version_unknown;
CREATE TRIGGER label_history_version_unknown AFTER INSERT ON label_history
  WHEN new.guidelines_version = 0 BEGIN
  UPDATE label_history SET guidelines_version = NULL WHERE id = new.id;
END;
`,
}
