import type { Migration } from './types'

/**
 * Provider batch APIs and prompt caching.
 *
 * `run_batches` is one batch a run handed to a provider, recorded the moment each step is
 * accepted (rows written before upload, the file id after it, `submitting` just before the create
 * call, the provider's batch id right after), so a process killed in any state can tell on resume
 * what the provider already has. `run_batch_requests` maps each `custom_id` in a batch to the
 * run's call key: a key with a `waiting` row is never put in another batch.
 *
 * Models get a batch discount (the fraction taken off at batch price, half by default) and
 * prices for cache reads and cache writes (NULL = the provider's usual ratio to the input price).
 * Calls keep cache-read and cache-write tokens apart from the other prompt tokens, and whether
 * they came back through a batch.
 */
export const migration0090: Migration = {
  version: 90,
  name: 'batches-and-prompt-cache',
  up: `
CREATE TABLE run_batches (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('openai', 'anthropic')),
  state TEXT NOT NULL CHECK (state IN ('preparing', 'uploaded', 'submitting', 'submitted', 'ended', 'ingested')),
  input_file_id TEXT,
  provider_batch_id TEXT,
  provider_status TEXT,
  output_file_id TEXT,
  error_file_id TEXT,
  requests INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  counts TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  -- 1 when the batch was found at the provider after an interruption rather than named by it.
  adopted INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  submit_started_at TEXT,
  submitted_at TEXT,
  ended_at TEXT
) STRICT;
CREATE INDEX run_batches_by_run ON run_batches (run_id);
CREATE UNIQUE INDEX run_batches_by_provider_id ON run_batches (provider, provider_batch_id)
  WHERE provider_batch_id IS NOT NULL;

CREATE TABLE run_batch_requests (
  batch_id INTEGER NOT NULL REFERENCES run_batches(id) ON DELETE CASCADE,
  custom_id TEXT NOT NULL,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  call_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  request TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'done', 'error', 'retry', 'unfinished')),
  PRIMARY KEY (batch_id, custom_id)
) STRICT;
CREATE INDEX run_batch_requests_by_key ON run_batch_requests (run_id, call_key, state);

ALTER TABLE models ADD COLUMN batch_discount REAL NOT NULL DEFAULT 0.5 CHECK (batch_discount BETWEEN 0 AND 1);
ALTER TABLE models ADD COLUMN price_cache_read_per_mtok REAL CHECK (price_cache_read_per_mtok >= 0);
ALTER TABLE models ADD COLUMN price_cache_write_per_mtok REAL CHECK (price_cache_write_per_mtok >= 0);

ALTER TABLE run_calls ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_calls ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_calls ADD COLUMN via_batch INTEGER NOT NULL DEFAULT 0;
`,
}
