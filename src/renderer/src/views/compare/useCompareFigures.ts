import { useCallback, useEffect, useRef, useState } from 'react'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { api } from '../../api'
import { takeEarlyFigures } from './earlyFigures'
import { dropKeptFigures, keepFigures, keptFigures } from './keptFigures'
import { useFigureReload } from './useFigureReload'

export interface CompareFigures {
  /** What to show: the server's latest answer, or the kept figures until it arrives. */
  data: DatasetMetrics | undefined
  error: string | null
  reload(): void
}

/**
 * A dataset's Compare figures: the kept ones at once when there are any (keptFigures.ts), and
 * always the server's answer, asked for as the route changed (earlyFigures.ts) or now. Asked
 * again whenever the figures may have changed. A later answer is never overwritten by an
 * earlier one. The dataset is fixed for the hook's life: the view remounts for another.
 */
export function useCompareFigures(datasetId: number): CompareFigures {
  const [data, setData] = useState<DatasetMetrics | undefined>(() => keptFigures(datasetId) ?? undefined)
  const [error, setError] = useState<string | null>(null)
  const [tick, setTick] = useState(0)
  const seq = useRef(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` is how a reload asks again
  useEffect(() => {
    const mine = ++seq.current
    const answer = takeEarlyFigures(datasetId) ?? api('metrics.compare', { datasetId })
    answer.then(
      (figures) => {
        if (mine !== seq.current) return
        // The same figures again hand back the object on screen: React then draws nothing.
        setData(keepFigures(datasetId, figures))
        setError(null)
      },
      (e: unknown) => {
        if (mine !== seq.current) return
        // Figures the server would not confirm are not shown on the next open.
        dropKeptFigures()
        setError(e instanceof Error ? e.message : String(e))
      },
    )
    // An answer that lands after the view closed is neither shown nor kept: a change heard
    // meanwhile dropped the kept figures, and an answer from before it must not come back.
    return () => {
      seq.current++
    }
  }, [datasetId, tick])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  useFigureReload(datasetId, reload)
  return { data, error, reload }
}
