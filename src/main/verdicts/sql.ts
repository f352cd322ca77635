/*
 * Conditions on verdicts for queries that other folders build around targets, units or runs:
 * each is one SQL expression over the given column, so those queries stay one statement.
 */

/** The run (SQL expression for its id) has at least one verdict. */
export const runHasVerdicts = (run: string) => `EXISTS (SELECT 1 FROM verdicts v WHERE v.run_id = ${run})`

/** Some run has a verdict (of any status) on the target. */
export const targetHasVerdict = (target: string) =>
  `EXISTS (SELECT 1 FROM verdicts v WHERE v.target_id = ${target})`

/** How many verdicts the targets of a unit have, over all runs. */
export const unitVerdictCount = (unit: string) =>
  `(SELECT COUNT(*) FROM verdicts v JOIN targets t ON t.id = v.target_id WHERE t.unit_id = ${unit})`

/**
 * `FROM … WHERE`-free source of the ok verdicts (alias v) of every run of a dataset (an SQL
 * expression for its id): the caller adds joins on v.target_id and its own WHERE.
 */
export const okVerdictsOfDatasetRuns = (dataset: string) =>
  `FROM runs r JOIN verdicts v ON v.run_id = r.id AND r.dataset_id = ${dataset} AND v.status = 'ok'`
