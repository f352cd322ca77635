import type { Migration } from './types'

/**
 * An adjudicator can change their mind; the earlier decision must not vanish with it. Every
 * state a gold row takes is appended here by triggers, whoever writes the gold table.
 */
export const migration0030: Migration = {
  version: 30,
  name: 'gold-history',
  up: `
CREATE TABLE gold_history (
  id INTEGER PRIMARY KEY,
  target_id INTEGER NOT NULL,
  verdict TEXT,
  source TEXT,
  adjudicator_id INTEGER,
  note TEXT,
  action TEXT NOT NULL CHECK (action IN ('set', 'cleared')),
  at TEXT NOT NULL
) STRICT;
CREATE INDEX gold_history_by_target ON gold_history (target_id, id);

INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at)
  SELECT target_id, verdict, source, adjudicator_id, note, 'set', updated_at FROM gold ORDER BY updated_at;

CREATE TRIGGER gold_history_on_insert AFTER INSERT ON gold BEGIN
  INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at)
  VALUES (NEW.target_id, NEW.verdict, NEW.source, NEW.adjudicator_id, NEW.note, 'set', NEW.updated_at);
END;
CREATE TRIGGER gold_history_on_update AFTER UPDATE ON gold BEGIN
  INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at)
  VALUES (NEW.target_id, NEW.verdict, NEW.source, NEW.adjudicator_id, NEW.note, 'set', NEW.updated_at);
END;
CREATE TRIGGER gold_history_on_delete AFTER DELETE ON gold BEGIN
  INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at)
  VALUES (OLD.target_id, NULL, NULL, NULL, NULL, 'cleared', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
CREATE TRIGGER gold_history_no_update BEFORE UPDATE ON gold_history
  BEGIN SELECT RAISE(ABORT, 'gold history is append-only'); END;
CREATE TRIGGER gold_history_no_delete BEFORE DELETE ON gold_history
  BEGIN SELECT RAISE(ABORT, 'gold history is append-only'); END;
`,
}
