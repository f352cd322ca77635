import { useEffect } from 'react'
import { onEvent } from '../../api'

/**
 * Reloads a dataset's figures when they may have changed: its labels, a run that stopped, or
 * another workspace. Not at every call of a running judge: that would recompute everything per
 * tick while the run is still going.
 */
export function useFigureReload(datasetId: number | null, reload: () => void): void {
  useEffect(() => {
    const offs = [
      onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
      onEvent('runs.progress', (e) => e.status !== 'running' && e.status !== 'queued' && reload()),
      onEvent('workspace.changed', () => reload()),
    ]
    return () => {
      for (const off of offs) off()
    }
  }, [datasetId, reload])
}
