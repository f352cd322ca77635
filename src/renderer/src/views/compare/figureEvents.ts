import { onEvent } from '../../api'

/**
 * Calls `changed` whenever a dataset's figures may have changed: its labels, a run that stopped,
 * or another workspace. Not at every call of a running judge: that would recompute everything per
 * tick while the run is still going. Returns the unsubscribe function.
 */
export function onFiguresChanged(datasetId: number | null, changed: () => void): () => void {
  const offs = [
    onEvent('labels.changed', (e) => e.datasetId === datasetId && changed()),
    onEvent('runs.progress', (e) => e.status !== 'running' && e.status !== 'queued' && changed()),
    onEvent('workspace.changed', () => changed()),
  ]
  return () => {
    for (const off of offs) off()
  }
}
