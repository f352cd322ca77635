/** What a cost axis says when no run cost anything: one plain label instead of a $0–$1 scale. */
export const ALL_RUNS_FREE = 'all runs free'

export function allRunsFree(costs: readonly number[]): boolean {
  return costs.length > 0 && costs.every((c) => c === 0)
}
