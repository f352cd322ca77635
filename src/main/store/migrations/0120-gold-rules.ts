import type { Migration } from './types'

/**
 * A dataset states how its gold is made (datasets.settings.goldRule). Changing the rule changes
 * the gold of every target nobody adjudicated, so each change is kept: the rule set, the rule it
 * replaced, and the gold of every target whose gold moved, before and after. Append-only.
 */
export const migration0120: Migration = {
  version: 120,
  name: 'gold-rules',
  up: `
CREATE TABLE gold_rule_history (
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL,
  rule TEXT NOT NULL,
  previous TEXT NOT NULL,
  changed_by TEXT,
  changed_at TEXT NOT NULL,
  gold_before INTEGER NOT NULL,
  gold_after INTEGER NOT NULL
) STRICT;
CREATE INDEX gold_rule_history_by_dataset ON gold_rule_history (dataset_id, id);

CREATE TABLE gold_rule_changes (
  change_id INTEGER NOT NULL REFERENCES gold_rule_history(id),
  target_id INTEGER NOT NULL,
  before TEXT,
  after TEXT,
  PRIMARY KEY (change_id, target_id)
) STRICT;

CREATE TRIGGER gold_rule_history_no_update BEFORE UPDATE ON gold_rule_history
  BEGIN SELECT RAISE(ABORT, 'gold rule history is append-only'); END;
CREATE TRIGGER gold_rule_history_no_delete BEFORE DELETE ON gold_rule_history
  BEGIN SELECT RAISE(ABORT, 'gold rule history is append-only'); END;
CREATE TRIGGER gold_rule_changes_no_update BEFORE UPDATE ON gold_rule_changes
  BEGIN SELECT RAISE(ABORT, 'gold rule history is append-only'); END;
CREATE TRIGGER gold_rule_changes_no_delete BEFORE DELETE ON gold_rule_changes
  BEGIN SELECT RAISE(ABORT, 'gold rule history is append-only'); END;
`,
}
