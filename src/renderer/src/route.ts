import type { Route } from './views/types'

/**
 * The route lives in the URL hash (#/annotate/3?target=41) so a reload, or a link pasted to a
 * colleague, lands on the same unit.
 */
export function routeToHash(route: Route): string {
  const q = new URLSearchParams()
  switch (route.view) {
    case 'datasets':
    case 'settings':
      return `#/${route.view}`
    case 'judges':
      return route.datasetId === undefined ? '#/judges' : `#/judges/${route.datasetId}`
    case 'annotate':
      if (route.targetId !== undefined) q.set('target', String(route.targetId))
      if (route.itemId !== undefined) q.set('item', String(route.itemId))
      break
    case 'units':
      if (route.itemId !== undefined) q.set('item', String(route.itemId))
      break
  }
  const query = q.toString()
  return `#/${route.view}/${route.datasetId}${query ? `?${query}` : ''}`
}

const int = (s: string | null | undefined): number | undefined => {
  if (s == null || !/^\d+$/.test(s)) return undefined
  return Number(s)
}

/** Reads a hash back; anything unrecognised goes to the datasets list. */
export function hashToRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?')
  const [view, idText] = path.split('/')
  const q = new URLSearchParams(query)
  const datasetId = int(idText)
  if (view === 'settings') return { view: 'settings' }
  if (view === 'judges') return datasetId === undefined ? { view: 'judges' } : { view: 'judges', datasetId }
  if (datasetId === undefined) return { view: 'datasets' }
  switch (view) {
    case 'items':
    case 'agreement':
    case 'compare':
    case 'project':
      return { view, datasetId }
    case 'annotate': {
      const targetId = int(q.get('target'))
      const itemId = int(q.get('item'))
      return {
        view,
        datasetId,
        ...(targetId !== undefined ? { targetId } : {}),
        ...(itemId !== undefined ? { itemId } : {}),
      }
    }
    case 'units': {
      const itemId = int(q.get('item'))
      return { view, datasetId, ...(itemId !== undefined ? { itemId } : {}) }
    }
    default:
      return { view: 'datasets' }
  }
}

export function routeDataset(route: Route): number | null {
  return 'datasetId' in route && route.datasetId !== undefined ? route.datasetId : null
}
