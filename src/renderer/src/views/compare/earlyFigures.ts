import type { CallOutput } from '../../../../shared/contract'
import { api } from '../../api'
import type { Route } from '../types'
import { onFiguresChanged } from './figureEvents'

/**
 * The Compare view's figures, asked for as soon as the route turns to it rather than once its
 * code has loaded: the view's script is a chunk of its own (lazyNamed.ts), and fetching and
 * running it delayed the server's work by as long on a cold open. The view takes the answer when
 * it mounts. A figure change heard before then (figureEvents.ts) asks again, so the view never
 * shows figures older than its own call would; a route elsewhere drops the answer.
 */
type Figures = CallOutput<'metrics.compare'>

interface Early {
  datasetId: number
  answer: Promise<Figures>
  stopListening(): void
}

let early: Early | null = null
/** The dataset of the Compare route last followed, or null when the route is elsewhere. */
let followed: number | null = null

function ask(datasetId: number): void {
  const answer = api('metrics.compare', { datasetId })
  // The view reports a failure when it takes the answer; one nobody takes is not an error.
  answer.catch(() => {})
  if (early) early.answer = answer
  else early = { datasetId, answer, stopListening: onFiguresChanged(datasetId, () => ask(datasetId)) }
}

function drop(): void {
  early?.stopListening()
  early = null
}

/**
 * Follows the app's route: a Compare route that was not already the current one asks for its
 * figures; any other route drops an answer nobody took. The same route again asks nothing (the
 * view is mounted already and would never take it).
 */
export function followRoute(route: Route): void {
  const datasetId = route.view === 'compare' ? route.datasetId : null
  if (datasetId === followed) return
  followed = datasetId
  drop()
  if (datasetId !== null) ask(datasetId)
}

/** The answer asked for early for this dataset, once; null when there is none to take. */
export function takeEarlyFigures(datasetId: number): Promise<Figures> | null {
  if (early?.datasetId !== datasetId) return null
  const { answer } = early
  drop()
  return answer
}
