/**
 * The calendar pace of a project: labels a day, measured over the days the last week's labelling
 * actually spans (the first of its labels to now, at least one day), and the finish date at that
 * one rate. A project started this morning is not a week old: dividing its labels by seven would
 * put the finish weeks after what the same line's pace says. Pure: no I/O.
 */
const DAY_MS = 86_400_000
export const PACE_WINDOW_DAYS = 7

export function finishAtPace(
  placed: { n: number; first: string | null },
  remaining: number,
  now: Date,
): { labelsPerDay: number; paceDays: number; projectedFinish: string | null } {
  const since = placed.first === null ? now.getTime() : Date.parse(placed.first)
  const paceDays = Math.min(PACE_WINDOW_DAYS, Math.max(1, (now.getTime() - since) / DAY_MS))
  const labelsPerDay = placed.n / paceDays
  const day = (t: number) => new Date(t).toISOString().slice(0, 10)
  if (remaining <= 0) return { labelsPerDay, paceDays, projectedFinish: day(now.getTime()) }
  if (labelsPerDay === 0) return { labelsPerDay, paceDays, projectedFinish: null }
  const days = Math.ceil(remaining / labelsPerDay)
  return { labelsPerDay, paceDays, projectedFinish: day(now.getTime() + days * DAY_MS) }
}
