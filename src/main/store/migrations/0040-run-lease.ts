import type { Migration } from './types'

/**
 * One process drives a run at a time. The desktop app, browser mode and the CLI can all open the
 * same workspace; without a claim in the file itself, two of them would ask the provider for the
 * same pending targets (paying twice) and race each other's verdict writes. `run_leases` holds
 * the current driver of each run; `run_lease_log` keeps who drove it when, so a takeover of a
 * silent driver can be explained afterwards.
 */
export const migration0040: Migration = {
  version: 40,
  name: 'run-lease',
  up: `
CREATE TABLE run_leases (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  owner TEXT NOT NULL,
  driver TEXT NOT NULL CHECK (driver IN ('app', 'browser', 'cli', 'other')),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  acquired_at TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
) STRICT;

CREATE TABLE run_lease_log (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  event TEXT NOT NULL CHECK (event IN ('claimed', 'taken-over', 'released')),
  driver TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  note TEXT,
  at TEXT NOT NULL
) STRICT;
CREATE INDEX run_lease_log_by_run ON run_lease_log (run_id, id);
`,
}
