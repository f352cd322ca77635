/** Shared by the label and verdict loaders that feed the metrics' typed columns. */

export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`
// Target, run (or annotator) and the verdict's code are packed into one integer per row, which
// better-sqlite3 returns several times faster than a row of separate columns. Offsets keep the
// packed value small: below 2^30 V8 stores it without allocating.
export const CODE_SPAN = 64
