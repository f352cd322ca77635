import type { Dashboard } from '../../../../shared/contract/projects'
import { countOf } from '../../../../shared/plural'

/*
 * The Progress card's sentences, apart from the markup so they can be read and tested as words.
 * Two forecasts stand side by side there and measure different things: the time left is active
 * labelling time (the median seconds a label), the date is the calendar (labels placed a day).
 * Each says which, or "57 s left" beside a date days away reads as a contradiction.
 */

/** A duration that never rounds a few seconds down to "0 min" beside a cost of a few cents. */
export function duration(seconds: number): string {
  if (seconds < 0.5) return 'under a second'
  if (seconds < 60) return `${Math.round(seconds)} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}
export const hours = (h: number) => duration(h * 3600)
export const labelsWord = (n: number) => countOf(n, 'label')

/** The days the labels-a-day rate is measured over, as the progress line says it. */
export const paceWindow = (days: number) =>
  days <= 1
    ? 'so far (labelling began today)'
    : days < 7
      ? `over the ${countOf(Math.ceil(days), 'day')} since labelling began`
      : 'this week'

/** Whose work the forecasts cover: the team's plan at the lead's, one person's share on a laptop. */
const whose = (d: Dashboard) => (d.laptop ? ` of ${d.laptop.annotator}'s share` : '')

/** "about 57 s of active labelling left …", or null without a pace or with nothing left. */
export function timeLeftWords(d: Dashboard, share: number): string | null {
  if (share >= 1 || d.projectedHours === null) return null
  return `about ${hours(d.projectedHours)} of active labelling left${whose(d)} at the median time per label`
}

/** "done around 2026-11-30 by the calendar: 4 labels a day so far", or null without a date. */
export function finishWords(d: Dashboard, share: number): string | null {
  if (share >= 1 || d.projectedFinish === null || d.labelsPerDay <= 0) return null
  const what = d.laptop ? `${d.laptop.annotator}'s share done` : 'done'
  return `${what} around ${d.projectedFinish} by the calendar: ${labelsWord(Math.round(d.labelsPerDay))} a day ${paceWindow(d.paceDays)}`
}

/** What a laptop's figures cover, and why the lead's count of the same person differs. */
export function laptopCoverage(l: NonNullable<Dashboard['laptop']>): string {
  const who = l.annotator
  return `On this laptop: ${who}'s package only — ${countOf(l.items, 'item')}, ${countOf(l.targets, 'target')} and ${countOf(l.controls, 'control')}. The lead's dashboard counts the whole plan and everyone's labels; there, a control ${who} answered before the package was written counts as a control, not in ${who}'s share, so that share can be smaller than here.`
}

/** "39 of 51 targets labelled": a laptop's own progress, where no target can reach k. */
export function laptopProgress(l: NonNullable<Dashboard['laptop']>): string {
  return `${l.annotator}'s share: ${l.done} of ${countOf(l.targets, 'target')} labelled`
}
