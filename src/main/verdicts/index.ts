/**
 * The verdicts room: every read and write of the `verdicts` table lives in this folder — the run
 * engine's writes (and which targets a resumed run may skip), imported verdicts, the metrics'
 * typed verdict columns (`columns.ts`), the verdicts export, the annotate view's and the Judges
 * view's reads, and the SQL conditions other folders' queries use (`sql.ts`). No file outside it
 * prepares SQL on that table (test/architecture/tableOwners).
 *
 * Inside src/main, import the module you need (e.g. `verdicts/write`) rather than this index.
 */
export { loadRuns } from './columns'
export * from './reads'
export * from './sql'
export { importedVerdictWriter, writeVerdicts } from './write'
