import type { Migration } from './types'

/**
 * A call answered through a batch keeps its request hash on the call too, as a synchronous call
 * does (migration 0150 left it NULL there, on the batch request only), so every reader of
 * `run_calls.request_hash` sees a finished batch run as it sees a synchronous one. Calls stored
 * before this copy it from the batch request they name; running it again changes nothing.
 *
 * `runs.planned_calls` is the number of calls a judge run plans (judges/plannedCalls.ts), so a
 * run can say "n of N calls"; `total_calls` counts its candidates, the unit of its progress.
 * NULL until the run is first started (and for runs from before, until they start again).
 */
export const migration0280: Migration = {
  version: 280,
  name: 'batch-call-hashes',
  up: `
UPDATE run_calls SET request_hash = (
  SELECT r.request_hash FROM run_batch_requests r WHERE r.id = run_calls.batch_request_id
)
WHERE request_hash IS NULL AND batch_request_id IS NOT NULL;
ALTER TABLE runs ADD COLUMN planned_calls INTEGER;
`,
}
