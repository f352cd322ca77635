import { useCallback, useEffect, useState } from 'react'
import { onEvent } from '../../api'
import type { Route } from '../types'

/**
 * The desktop menu (File › Import…, Export…, Switch Annotator…) can fire from any view. Import
 * and export land on the Datasets view with their dialog open; the request is kept here until
 * the component that owns the dialog mounts and takes it, since that view is usually not on
 * screen when the menu is used.
 */
let pendingExport: number | null = null
let pendingImport = false
const listeners = new Set<() => void>()

function notify(): void {
  for (const l of listeners) l()
}

export function requestExport(datasetId: number): void {
  pendingExport = datasetId
  notify()
}

export function requestImport(): void {
  pendingImport = true
  notify()
}

function usePending(read: () => boolean, clearPending: () => void): [boolean, () => void] {
  const [asked, setAsked] = useState(read)
  useEffect(() => {
    const check = () => setAsked(read())
    listeners.add(check)
    check()
    return () => {
      listeners.delete(check)
    }
  }, [read])
  const clear = useCallback(() => {
    clearPending()
    setAsked(false)
  }, [clearPending])
  return [asked, clear]
}

/** True once for the card of the dataset the menu asked to export; the card clears it. */
export function useExportRequest(datasetId: number): [boolean, () => void] {
  const read = useCallback(() => pendingExport === datasetId, [datasetId])
  const clear = useCallback(() => {
    if (pendingExport === datasetId) pendingExport = null
  }, [datasetId])
  return usePending(read, clear)
}

const readImport = () => pendingImport
const clearImport = () => {
  pendingImport = false
}

/** True once when the menu asked for the import wizard; the Datasets view clears it. */
export function useImportRequest(): [boolean, () => void] {
  return usePending(readImport, clearImport)
}

/** Mounted once by the app: turns the menu's navigate events into views and dialogs. */
export function useMenuCommands(
  navigate: (r: Route) => void,
  datasetId: number | null,
  chooseAnnotator: () => void,
): void {
  useEffect(
    () =>
      onEvent('app.navigate', ({ view }) => {
        if (view === 'annotator') return chooseAnnotator()
        navigate({ view: 'datasets' })
        if (view === 'import') requestImport()
        else if (datasetId !== null) requestExport(datasetId)
      }),
    [navigate, datasetId, chooseAnnotator],
  )
  // Another workspace was opened (File › Open): every view's data is stale, so start afresh.
  useEffect(() => onEvent('workspace.changed', () => window.location.reload()), [])
}
