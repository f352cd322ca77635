import type { Migration } from './types'

/**
 * The whole domain model of design.md. Targets are materialised so that "next unlabelled
 * target" and every metric join are plain indexed lookups; labels and verdicts point at them.
 */
export const migration0010: Migration = {
  version: 10,
  name: 'initial',
  up: `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

CREATE TABLE datasets (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  label_schema TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT '{}',
  settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE items (
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  ext_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  question TEXT,
  reference TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  UNIQUE (dataset_id, ext_id)
) STRICT;
CREATE INDEX items_by_dataset ON items (dataset_id, position);

CREATE TABLE candidates (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  variant TEXT NOT NULL,
  text TEXT NOT NULL,
  origin TEXT NOT NULL DEFAULT 'import',
  parent_candidate_id INTEGER REFERENCES candidates(id),
  metadata TEXT NOT NULL DEFAULT '{}',
  UNIQUE (item_id, variant)
) STRICT;

-- A unit is never rewritten once labelled: an edit makes a new row (version + 1, same
-- lineage) and the old row is marked superseded, keeping its labels attached to its text.
CREATE TABLE units (
  id INTEGER PRIMARY KEY,
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  candidate_id INTEGER REFERENCES candidates(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('fact', 'triplet', 'sentence', 'whole')),
  position REAL NOT NULL,
  text TEXT NOT NULL,
  triplet TEXT,
  origin TEXT NOT NULL DEFAULT 'import',
  version INTEGER NOT NULL DEFAULT 1,
  lineage_id INTEGER,
  superseded_by INTEGER REFERENCES units(id),
  deleted_at TEXT,
  created_at TEXT NOT NULL,
  CHECK (kind = 'fact' OR candidate_id IS NOT NULL)
) STRICT;
CREATE INDEX units_by_item ON units (item_id, kind, position);
CREATE INDEX units_by_candidate ON units (candidate_id);

-- fact: judged in candidate_id (recall); triplet/sentence/whole: candidate_id is the unit's own
-- candidate and the unit is judged against the item's reference (precision).
CREATE TABLE targets (
  id INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
  candidate_id INTEGER NOT NULL REFERENCES candidates(id) ON DELETE CASCADE,
  UNIQUE (unit_id, candidate_id)
) STRICT;
CREATE INDEX targets_by_dataset ON targets (dataset_id, item_id, candidate_id, unit_id);
CREATE INDEX targets_by_candidate ON targets (candidate_id);

CREATE TABLE annotators (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
) STRICT;

-- The current label of one annotator on one target. verdict NULL means the label was cleared
-- (undo); the history below keeps every state.
CREATE TABLE labels (
  id INTEGER PRIMARY KEY,
  target_id INTEGER NOT NULL REFERENCES targets(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  verdict TEXT,
  evidence TEXT NOT NULL DEFAULT '[]',
  note TEXT,
  seconds REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (target_id, annotator_id)
) STRICT;
CREATE INDEX labels_by_annotator ON labels (annotator_id, target_id);

CREATE TABLE label_history (
  id INTEGER PRIMARY KEY,
  target_id INTEGER NOT NULL REFERENCES targets(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  verdict TEXT,
  evidence TEXT NOT NULL DEFAULT '[]',
  note TEXT,
  seconds REAL NOT NULL DEFAULT 0,
  action TEXT NOT NULL,
  at TEXT NOT NULL
) STRICT;
CREATE INDEX label_history_by_target ON label_history (target_id, annotator_id, id);
CREATE TRIGGER label_history_no_update BEFORE UPDATE ON label_history
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;
CREATE TRIGGER label_history_no_delete BEFORE DELETE ON label_history
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;

-- Adjudicated or imported gold. Where no row exists, gold is the annotators' majority.
CREATE TABLE gold (
  target_id INTEGER PRIMARY KEY REFERENCES targets(id),
  verdict TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('adjudicated', 'import')),
  adjudicator_id INTEGER REFERENCES annotators(id),
  note TEXT,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE prompt_templates (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  version INTEGER NOT NULL,
  method TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (name, version)
) STRICT;

CREATE TABLE models (
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  base_url TEXT NOT NULL DEFAULT '',
  capabilities TEXT NOT NULL DEFAULT '{}',
  price_input_per_mtok REAL NOT NULL DEFAULT 0,
  price_output_per_mtok REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (provider, model, base_url)
) STRICT;

CREATE TABLE judge_configs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  method TEXT NOT NULL,
  base_url TEXT,
  settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
) STRICT;

-- config is a full snapshot (provider, model, method, settings, template bodies) so a result
-- can always be traced to exactly what made it, even after the judge config is edited.
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('judge', 'extract', 'improve', 'imported')),
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  judge_config_id INTEGER REFERENCES judge_configs(id),
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  method TEXT NOT NULL,
  config TEXT NOT NULL DEFAULT '{}',
  slice TEXT NOT NULL DEFAULT '{}',
  repeat_index INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'cancelled', 'failed', 'done')),
  total_calls INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT
) STRICT;
CREATE INDEX runs_by_dataset ON runs (dataset_id);

-- One provider call. A finished call is never repeated on resume; the raw request and reply
-- live here once, however many verdicts the call produced.
CREATE TABLE run_calls (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  call_key TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'error')),
  request_hash TEXT,
  request TEXT,
  response TEXT,
  cached INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  latency_ms REAL,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  error TEXT,
  finished_at TEXT,
  UNIQUE (run_id, call_key)
) STRICT;

-- status: ok (a verdict), na (format failure: the paper's N/A), error (transport failure after
-- retries; not a verdict at all).
CREATE TABLE verdicts (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  target_id INTEGER NOT NULL REFERENCES targets(id),
  call_id INTEGER REFERENCES run_calls(id),
  status TEXT NOT NULL CHECK (status IN ('ok', 'na', 'error')),
  verdict TEXT,
  score REAL,
  reason TEXT,
  citation TEXT,
  detail TEXT NOT NULL DEFAULT '{}',
  UNIQUE (run_id, target_id)
) STRICT;
CREATE INDEX verdicts_by_target ON verdicts (target_id);

CREATE TABLE response_cache (
  request_hash TEXT PRIMARY KEY,
  response TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
) STRICT;
`,
}
