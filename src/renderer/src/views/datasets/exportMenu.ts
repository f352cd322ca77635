import { useEffect, useState } from 'react'
import { onEvent } from '../../api'
import type { Route } from '../types'

/**
 * File › Export… in the desktop menu can fire from any view: it lands on the Datasets view with
 * the export dialog of the current dataset open. The request is kept here until that dataset's
 * card mounts and takes it, since the view is usually not on screen when the menu is used.
 */
let pending: number | null = null
const listeners = new Set<() => void>()

export function requestExport(datasetId: number): void {
  pending = datasetId
  for (const l of listeners) l()
}

/** True once for the card of the dataset the menu asked to export; the card clears it. */
export function useExportRequest(datasetId: number): [boolean, () => void] {
  const [asked, setAsked] = useState(pending === datasetId)
  useEffect(() => {
    const check = () => setAsked(pending === datasetId)
    listeners.add(check)
    check()
    return () => {
      listeners.delete(check)
    }
  }, [datasetId])
  const clear = () => {
    if (pending === datasetId) pending = null
    setAsked(false)
  }
  return [asked, clear]
}

/** Mounted once by the app: turns the menu's navigate event into the export dialog. */
export function useExportMenu(navigate: (r: Route) => void, datasetId: number | null): void {
  useEffect(
    () =>
      onEvent('app.navigate', ({ view }) => {
        if (view !== 'export') return
        navigate({ view: 'datasets' })
        if (datasetId !== null) requestExport(datasetId)
      }),
    [navigate, datasetId],
  )
}
