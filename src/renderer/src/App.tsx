import { Suspense, useCallback, useEffect, useState } from 'react'
import type { CallOutput } from '../../shared/contract'
import { onEvent } from './api'
import { AnnotatorGate } from './components/AnnotatorGate'
import { DatasetSwitcher } from './components/DatasetSwitcher'
import { Loading } from './components/Loading'
import { firstRead } from './firstReads'
import { type Query, useQuery, useRereadWhenChanged } from './hooks'
import { lazyNamed, useLoadWhenIdle } from './lazyNamed'
import { hashToRoute, routeDataset, routeToHash } from './route'
import { SettingsContext, useSettingsStore } from './settings'
import { pageSaver } from './views/annotate/pageSaver'
import { PendingBanner } from './views/annotate/StatusBits'
import { useRestoreKept } from './views/annotate/useLabelSaver'
import { followRoute } from './views/compare/earlyFigures'
import { DatasetsView } from './views/datasets/DatasetsView'
import { useMenuCommands } from './views/datasets/menuCommands'
import type { Route, ViewProps } from './views/types'
import { workspaceInfo } from './workspaceInfo'

const AgreementView = lazyNamed(() => import('./views/agreement/AgreementView'), 'AgreementView')
const AnnotateView = lazyNamed(() => import('./views/annotate/AnnotateView'), 'AnnotateView')
const loadCompare = () => import('./views/compare/CompareView')
const CompareView = lazyNamed(loadCompare, 'CompareView')
const ItemsView = lazyNamed(() => import('./views/items/ItemsView'), 'ItemsView')
const JudgesView = lazyNamed(() => import('./views/judges/JudgesView'), 'JudgesView')
const ProjectView = lazyNamed(() => import('./views/project/ProjectView'), 'ProjectView')
const SettingsView = lazyNamed(() => import('./views/settings/SettingsView'), 'SettingsView')
const UnitsView = lazyNamed(() => import('./views/units/UnitsView'), 'UnitsView')

type NavView = Route['view']
type DatasetNames = Query<CallOutput<'datasets.names'>>

const NAV: { view: NavView; label: string; needsDataset: boolean }[] = [
  { view: 'datasets', label: 'Datasets', needsDataset: false },
  { view: 'items', label: 'Items', needsDataset: true },
  { view: 'annotate', label: 'Annotate', needsDataset: true },
  { view: 'units', label: 'Units', needsDataset: true },
  { view: 'agreement', label: 'Agreement', needsDataset: true },
  { view: 'judges', label: 'Judges', needsDataset: false },
  { view: 'compare', label: 'Compare', needsDataset: true },
  { view: 'project', label: 'Project', needsDataset: true },
  { view: 'settings', label: 'Settings', needsDataset: false },
]

function routeFor(view: NavView, datasetId: number | null): Route | null {
  if (view === 'datasets' || view === 'settings') return { view }
  if (view === 'judges') return datasetId === null ? { view } : { view, datasetId }
  return datasetId === null ? null : { view, datasetId }
}

/**
 * The route, from the URL hash. Each route is also handed to `followRoute` where it changes,
 * before anything renders: a view whose data takes long to work out has it asked for while its
 * code still loads.
 */
function useHashRoute(): [Route, (r: Route) => void] {
  const [route, setRoute] = useState(() => {
    const first = hashToRoute(window.location.hash)
    followRoute(first)
    return first
  })
  useEffect(() => {
    const onHash = () => {
      const r = hashToRoute(window.location.hash)
      followRoute(r)
      setRoute(r)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  const navigate = useCallback((r: Route) => {
    const hash = routeToHash(r)
    if (hash !== window.location.hash) window.history.pushState(null, '', hash)
    followRoute(r)
    setRoute(r)
  }, [])
  return [route, navigate]
}

export function App() {
  const store = useSettingsStore()
  const { settings, update } = store
  const [route, navigate] = useHashRoute()
  const [lastDataset, setLastDataset] = useState<number | null>(routeDataset(route))
  const [choosing, setChoosing] = useState(false)
  const info = useQuery(workspaceInfo, [])
  const annotators = useQuery(() => firstRead('workspace.annotators'), [])
  const datasets = useQuery(() => firstRead('datasets.names'), [route.view, routeDataset(route)])

  const routeDs = routeDataset(route)
  useEffect(() => {
    if (routeDs !== null) setLastDataset(routeDs)
  }, [routeDs])
  useEffect(() => {
    if (lastDataset === null && datasets.data?.[0]) setLastDataset(datasets.data[0].id)
  }, [datasets.data, lastDataset])

  // A stored annotator that this workspace does not know (another file was opened) is dropped.
  // While the list reloads after a choice, the name just added is not in it yet: it counts as known.
  // A source is no one to label as, and on a package laptop only the package's annotator labels:
  // a stored choice that is either one asks again.
  // Read with the first calls, not after the datasets list: the gate lists names from it.
  const labellers = useQuery(() => firstRead('workspace.labellers'), [])
  const reloadAnnotators = annotators.reload
  const reloadLabellers = labellers.reload
  // Both lists together: a package opened makes its annotator, who alone may label here.
  const rereadWho = useCallback(() => {
    reloadAnnotators()
    reloadLabellers()
  }, [reloadAnnotators, reloadLabellers])
  // A dataset that came or went (an import, a package) may change who labels here.
  useRereadWhenChanged(datasets.data?.map((d) => d.id).join(','), rereadWho)
  // A package opened (or a bundle merged) changes who may label here: said without target ids.
  useEffect(() => onEvent('labels.changed', (p) => p.targetIds.length === 0 && rereadWho()), [rereadWho])
  const only = labellers.data?.only ?? null
  const known =
    annotators.loading ||
    labellers.loading ||
    (annotators.data?.some(
      (a) =>
        a.id === settings.annotatorId &&
        a.kind !== 'source' &&
        (only === null || only.some((o) => o.id === a.id)),
    ) ??
      true)
  const needsAnnotator = annotators.data !== undefined && (settings.annotatorId === null || !known)
  const datasetId = routeDs ?? lastDataset
  const currentDataset = datasets.data?.find((d) => d.id === datasetId)
  // The desktop menu's Import…, Export… and Switch Annotator… land here.
  // Switching asks afresh: someone may have been added in another window since the first read.
  const chooseAnnotator = useCallback(() => {
    setChoosing(true)
    rereadWho()
  }, [rereadWho])
  useMenuCommands(navigate, datasetId, chooseAnnotator)

  // Labels this tab kept from before a reload go out from whichever view the page opens on.
  useRestoreKept(known ? settings.annotatorId : null)
  // The Compare view's script is fetched once the first screen is up and the browser idles: its
  // figures keep the server's thread busy longest, and its script would wait behind them. Not
  // from the labelling screen, where an idle moment is the gap between two keys.
  useLoadWhenIdle(
    datasets.data !== undefined && datasets.data.length > 0 && route.view !== 'annotate',
    loadCompare,
  )

  const props: ViewProps = {
    datasetId,
    annotatorId: known ? settings.annotatorId : null,
    navigate,
    chooseAnnotator,
  }

  return (
    <SettingsContext.Provider value={store}>
      <div className="shell">
        <nav className="sidebar" aria-label="Main">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              F
            </span>
            FactLab
          </div>
          {currentDataset && (
            <DatasetSwitcher
              datasets={datasets.data ?? []}
              current={currentDataset}
              onSwitch={(id) => {
                setLastDataset(id)
                const same = routeFor(route.view, id)
                if (same && routeDataset(route) !== null) navigate(same)
              }}
            />
          )}
          <ul>
            {NAV.map((n) => {
              const target = routeFor(n.view, datasetId)
              return (
                <li key={n.view}>
                  <button
                    type="button"
                    className={route.view === n.view ? 'nav-item active' : 'nav-item'}
                    aria-current={route.view === n.view ? 'page' : undefined}
                    disabled={target === null}
                    title={target === null ? 'Choose a dataset first' : undefined}
                    // A click does not take the focus: a ring left on the button would light up at the
                    // next key the view handles. Keyboard users still tab here and see it.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => target && navigate(target)}
                  >
                    {n.label}
                  </button>
                </li>
              )
            })}
          </ul>
          <div className="sidebar-foot">
            <button type="button" className="who" onClick={chooseAnnotator} title="Switch annotator">
              <span className="avatar" aria-hidden="true">
                {(settings.annotatorName ?? '?').slice(0, 1).toUpperCase()}
              </span>
              <span>
                <span className="eyebrow">Labelling as</span>
                <span className="who-name">{known ? (settings.annotatorName ?? 'nobody') : 'nobody'}</span>
              </span>
            </button>
            {info.data && (
              <div className="workspace-file" title={info.data.file}>
                {info.data.file.split(/[\\/]/).pop()}
              </div>
            )}
          </div>
        </nav>
        <main className="content">
          {/* Off the labelling screen, labels still waiting say so here (Annotate says it in its bar). */}
          {route.view !== 'annotate' && (
            <PendingBanner status={pageSaver().status} onRetry={() => pageSaver().queue.retryNow()} />
          )}
          <Suspense fallback={<Loading what="this view" />}>
            <CurrentView route={route} props={props} names={datasets} />
          </Suspense>
        </main>
        {(needsAnnotator || choosing) && (
          <AnnotatorGate
            annotators={annotators}
            labellers={labellers}
            onChosen={(a) => {
              update({ annotatorId: a.id, annotatorName: a.name })
              setChoosing(false)
              annotators.reload()
            }}
            onCancel={needsAnnotator ? undefined : () => setChoosing(false)}
          />
        )}
      </div>
    </SettingsContext.Provider>
  )
}

function CurrentView({ route, props, names }: { route: Route; props: ViewProps; names: DatasetNames }) {
  switch (route.view) {
    case 'datasets':
      return <DatasetsView {...props} names={names} />
    case 'items':
      return <ItemsView {...props} datasetId={route.datasetId} />
    case 'annotate':
      return <AnnotateView {...props} route={route} />
    case 'units':
      return <UnitsView {...props} datasetId={route.datasetId} />
    case 'agreement':
      return <AgreementView {...props} datasetId={route.datasetId} />
    case 'judges':
      return <JudgesView {...props} datasetId={route.datasetId ?? props.datasetId} />
    case 'compare':
      return <CompareView {...props} datasetId={route.datasetId} />
    case 'project':
      return <ProjectView {...props} datasetId={route.datasetId} />
    case 'settings':
      return <SettingsView {...props} />
  }
}
