import { useEffect } from 'react'
import { onFiguresChanged } from './figureEvents'

/** Reloads a dataset's figures when they may have changed (figureEvents.ts says when). */
export function useFigureReload(datasetId: number | null, reload: () => void): void {
  useEffect(() => onFiguresChanged(datasetId, reload), [datasetId, reload])
}
