import type { Migration } from './types'

/**
 * The id a client gives each attempt to save a label. A save whose answer was lost (a timeout, a
 * cut connection, a restarted server) is sent again with the same id; finding it here, the
 * workspace answers with the label that first save stored instead of writing it a second time
 * (labels/saveOnce.ts). `request` is the save as first sent, so an id reused for another label is
 * refused rather than answered with the wrong one. `IF NOT EXISTS`: tests of earlier migrations set
 * a workspace's version back and run every later one again.
 */
export const migration0420: Migration = {
  version: 420,
  name: 'label-save-ids',
  up: `
CREATE TABLE IF NOT EXISTS label_saves (
  save_id TEXT PRIMARY KEY,
  target_id INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id) ON DELETE CASCADE,
  request TEXT NOT NULL,
  label TEXT NOT NULL,
  at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS label_saves_by_target ON label_saves (target_id);
`,
}
