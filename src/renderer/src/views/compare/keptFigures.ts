import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { onFiguresChanged } from './figureEvents'

/**
 * The figures the Compare view last showed, kept for the page's life: reopening the view on an
 * unchanged workspace draws them at once instead of after a round trip to the server, which was
 * most of that reopen. They are dropped the moment they may be out of date (figureEvents.ts: a
 * label of the dataset, a run that stopped, another workspace), so a reopen after such a change
 * waits for the new figures as a first open does. The view still asks on every open and puts the
 * answer in their place when it differs: a change no event reports (a price, a run renamed, a
 * write from another process) is on screen one round trip later.
 *
 * One dataset's figures only: reopening the view just left is the case this is for, and the
 * figures of a large workspace are megabytes of objects.
 */
interface Kept {
  datasetId: number
  figures: DatasetMetrics
  /**
   * Their JSON, to tell an unchanged answer (a new object) from a changed one; made when the
   * first later answer arrives, so a first open spends nothing on it before drawing.
   */
  json: string | null
  stopListening(): void
}

let kept: Kept | null = null

/** The figures kept for this dataset, or null when there are none to show. */
export function keptFigures(datasetId: number): DatasetMetrics | null {
  return kept?.datasetId === datasetId ? kept.figures : null
}

/**
 * Keeps an answer for this dataset and returns what the view should hold: the kept object
 * itself when the answer says the same (so the view, holding it already, draws nothing again),
 * otherwise the answer, kept in place of what was.
 */
export function keepFigures(datasetId: number, figures: DatasetMetrics): DatasetMetrics {
  if (kept?.datasetId === datasetId) {
    kept.json ??= JSON.stringify(kept.figures)
    const json = JSON.stringify(figures)
    if (kept.json === json) return kept.figures
    kept.figures = figures
    kept.json = json
    return figures
  }
  dropKeptFigures()
  kept = { datasetId, figures, json: null, stopListening: onFiguresChanged(datasetId, dropKeptFigures) }
  return figures
}

/** Forgets the kept figures: the next open waits for the server's. */
export function dropKeptFigures(): void {
  kept?.stopListening()
  kept = null
}
