import type { Migration } from './types'

/**
 * A call answered through a batch keeps its request record once, in the batch request it went
 * out as, instead of a second copy in run_calls: reading a 100,000-line results file no longer
 * writes the ~1 KB record of every call again. `run_calls.batch_request_id` names that request;
 * its `request` is then NULL, and the raw export reads the record through the reference. Calls
 * stored before this version keep their own copy.
 *
 * `run_batch_requests` becomes narrow (no record, and no index on its state): marking 100,000
 * requests answered rewrites a few hundred pages, not the pages of every record and an index
 * entry per request. The records move, row for row, to
 * `run_batch_request_records`, written once when the batch is made. A request gets an integer
 * id for the references, and `tool`: whether it asks for a tool call, all a reply's reader needs
 * of it, so results are read without parsing records.
 *
 * No foreign key on `batch_request_id`: batch requests are deleted only with their run, whose
 * calls go by the same cascade, and the key's index would cost every stored call a write.
 */
export const migration0130: Migration = {
  version: 130,
  name: 'batch-call-records',
  up: `
DROP INDEX run_batch_requests_by_key;
ALTER TABLE run_batch_requests RENAME TO run_batch_requests_0090;

CREATE TABLE run_batch_requests (
  id INTEGER PRIMARY KEY,
  batch_id INTEGER NOT NULL REFERENCES run_batches(id) ON DELETE CASCADE,
  custom_id TEXT NOT NULL,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  call_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  tool INTEGER NOT NULL DEFAULT 0 CHECK (tool IN (0, 1)),
  state TEXT NOT NULL CHECK (state IN ('waiting', 'done', 'error', 'retry', 'unfinished')),
  UNIQUE (batch_id, custom_id)
) STRICT;
CREATE INDEX run_batch_requests_by_key ON run_batch_requests (run_id, call_key);

CREATE TABLE run_batch_request_records (
  request_id INTEGER PRIMARY KEY REFERENCES run_batch_requests(id) ON DELETE CASCADE,
  record TEXT NOT NULL
) STRICT;

INSERT INTO run_batch_requests (batch_id, custom_id, run_id, call_key, request_hash, tool, state)
  SELECT batch_id, custom_id, run_id, call_key, request_hash,
    CASE WHEN json_valid(request) AND json_type(request, '$.request.tool') IS NOT NULL THEN 1 ELSE 0 END, state
  FROM run_batch_requests_0090 ORDER BY rowid;
INSERT INTO run_batch_request_records (request_id, record)
  SELECT n.id, o.request FROM run_batch_requests_0090 o
  JOIN run_batch_requests n ON n.batch_id = o.batch_id AND n.custom_id = o.custom_id;
DROP TABLE run_batch_requests_0090;

ALTER TABLE run_calls ADD COLUMN batch_request_id INTEGER;
`,
}
