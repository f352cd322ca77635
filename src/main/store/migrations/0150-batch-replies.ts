import { refreshJudgeDisagreement } from './0100-performance'
import type { Migration } from './types'

/**
 * The replies of a batch are kept together, a chunk of results per row, instead of one text per
 * call: reading a 100,000-line results file wrote 34 MB of reply JSON, row by row, into
 * `run_calls` (more than the verdicts it produced cost). `run_batch_replies.replies` holds up to
 * 64 replies of one ingest transaction, in the order their requests went out, each the very
 * text `run_calls.response` holds for a synchronous call (`JSON.stringify` of the reply), one
 * per line, compressed with raw DEFLATE (replies of one batch repeat their keys and most
 * values; short chunks, so that reading one reply inflates little). A call answered
 * through a batch then has `response` NULL and names its reply by `reply_chunk` (the chunk's
 * id) and `reply_line` (0-based); every reader of replies reads through both
 * (store/repos/batchReplies.ts), so nothing is lost and the views and exports are unchanged.
 * Its `request_hash` is NULL too: the request it names keeps the hash.
 *
 * No foreign key on `reply_chunk`, as on `batch_request_id`: chunks go with their batch, whose
 * run's calls go by the same cascade, and the key's index would cost every call a write.
 *
 * `verdict_bulk_writes` names the runs whose verdicts a writer is inserting in bulk (the passes
 * of a batch run write thousands per transaction): while a run is named there, an inserted
 * verdict of it leaves `verdict_columns` and `judge_disagreements` alone, and the writer brings
 * both up to date once, set-wise, for every target it wrote, before its transaction commits
 * (verdicts/write.ts). A row of it lives only inside that transaction, so no other connection
 * ever sees one; per row, the triggers cost more than the insert they follow.
 */
export const migration0150: Migration = {
  version: 150,
  name: 'batch-replies',
  up: `
CREATE TABLE run_batch_replies (
  id INTEGER PRIMARY KEY,
  batch_id INTEGER NOT NULL REFERENCES run_batches(id) ON DELETE CASCADE,
  replies BLOB NOT NULL
) STRICT;
CREATE INDEX run_batch_replies_by_batch ON run_batch_replies (batch_id);

ALTER TABLE run_calls ADD COLUMN reply_chunk INTEGER;
ALTER TABLE run_calls ADD COLUMN reply_line INTEGER;

CREATE TABLE verdict_bulk_writes (run_id INTEGER PRIMARY KEY) STRICT;

DROP TRIGGER verdict_columns_ai;
CREATE TRIGGER verdict_columns_ai AFTER INSERT ON verdicts
  WHEN NOT EXISTS (SELECT 1 FROM verdict_bulk_writes WHERE run_id = new.run_id) BEGIN
  DELETE FROM verdict_columns WHERE run_id = new.run_id;
END;
DROP TRIGGER judge_disagreements_verdict_ai;
CREATE TRIGGER judge_disagreements_verdict_ai AFTER INSERT ON verdicts
  WHEN NOT EXISTS (SELECT 1 FROM verdict_bulk_writes WHERE run_id = new.run_id)
  BEGIN ${refreshJudgeDisagreement('new.target_id')} END;
`,
}
