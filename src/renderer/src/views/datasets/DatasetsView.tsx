import { Suspense, useEffect, useState } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import type { DatasetSummary } from '../../../../shared/contract/datasets'
import { countOf, formatCount } from '../../../../shared/plural'
import { api, onEvent } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { type Query, useQuery } from '../../hooks'
import { lazyNamed } from '../../lazyNamed'
import { useSettings } from '../../settings'
import { PackageOpener } from '../project/PackagesPanel'
import type { ViewProps } from '../types'
import { DatasetExchange } from './DatasetExchange'
import { GoldRulePanel } from './GoldRulePanel'
import { useImportRequest } from './menuCommands'
import { StoppedImports } from './StoppedImports'

const fmt = { format: formatCount }

// Opened by a click (or the menu), so loaded then: the first screen does not wait for it.
const ImportWizard = lazyNamed(() => import('./ImportWizard'), 'ImportWizard')

function schemaText(d: DatasetSummary): string {
  const s = d.labelSchema
  return s.type === 'categorical' ? s.values.join(' / ') : `${s.min}–${s.max} scale`
}

/**
 * Every dataset of the workspace with how far each annotator has got. `names` is the window's
 * own read of the datasets' names (the sidebar's switcher), shown while progress is counted: one
 * read for both at the first screen, and an import read again here reaches the switcher too.
 */
export function DatasetsView({
  annotatorId,
  navigate,
  names,
}: ViewProps & { names: Query<CallOutput<'datasets.names'>> }) {
  const list = useQuery(() => api('datasets.list', {}), [])
  // Blind mode keeps disputes out of Items and Agreement until I have labelled; the count here
  // would tell what those views keep back.
  const { blind } = useSettings().settings
  const [importing, setImporting] = useState(false)
  const [importAsked, clearImportAsked] = useImportRequest()
  useEffect(() => {
    if (!importAsked) return
    setImporting(true)
    clearImportAsked()
  }, [importAsked, clearImportAsked])
  const { reload } = list
  useEffect(() => onEvent('labels.changed', () => reload()), [reload])

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <h1>Datasets</h1>
          <p className="muted">
            Progress counts the units labelled against every unit-and-answer pair to judge.
          </p>
        </div>
        <div className="page-head-actions">
          <PackageOpener onOpened={reload} />
          <button type="button" className="primary" onClick={() => setImporting(true)}>
            Import dataset…
          </button>
        </div>
      </header>
      <StoppedImports onWithdrawn={reload} />
      {list.error && <LoadFailed what="the datasets" error={list.error} onRetry={list.reload} />}
      {!list.data && !list.error && !names.data && (
        <Loading what="datasets" detail="Reading the workspace’s datasets and how far each person has got." />
      )}
      {!list.data && (
        <div className="dataset-list">
          {names.data?.map((d) => (
            <article key={d.id} className="card dataset-card" aria-label={d.name} aria-busy="true">
              <div className="dataset-main">
                <h2>{d.name}</h2>
                <p className="meta">Counting progress…</p>
              </div>
            </article>
          ))}
        </div>
      )}
      {list.data?.length === 0 && (
        <div className="empty">
          <h2>No datasets yet</h2>
          <p>Import a JSONL, JSON, CSV, TSV or Parquet file to start labelling.</p>
          <button type="button" className="primary" onClick={() => setImporting(true)}>
            Import dataset…
          </button>
        </div>
      )}
      <div className="dataset-list">
        {list.data?.map((d) => (
          <article key={d.id} className="card dataset-card" aria-label={d.name}>
            <div className="dataset-main">
              <h2>
                <button
                  type="button"
                  className="link"
                  onClick={() => navigate({ view: 'items', datasetId: d.id })}
                >
                  {d.name}
                </button>
              </h2>
              <p className="meta">
                <span className="chip">{d.labelSchema.name}</span>
                <span>{schemaText(d)}</span>
                <span>·</span>
                <span>{countOf(d.items, 'item')}</span>
                <span>·</span>
                <span>{countOf(d.units, 'unit')}</span>
                <span>·</span>
                <span>{fmt.format(d.targets)} to judge</span>
                {d.disputed > 0 && !blind && <span className="chip warn">{d.disputed} disputed</span>}
              </p>
              {d.variants.length > 0 && (
                <p className="meta">
                  {d.variants.map((v) => (
                    <span key={v} className="chip subtle">
                      {v}
                    </span>
                  ))}
                </p>
              )}
            </div>
            <div className="dataset-progress">
              {d.plan && (
                <Progress
                  // Short enough for the name column at 1024 px; the title says it in full.
                  name={d.plan.package ? `${d.plan.package.annotator}'s share` : `plan (k = ${d.plan.k})`}
                  title={
                    d.plan.package
                      ? `The work ${d.plan.package.annotator}'s package holds, labelled here; the lead's plan asks for ${countOf(d.plan.k, 'label')} per target across everyone`
                      : `The plan: ${countOf(d.plan.k, 'label')} per target, counted up to ${d.plan.k} on each (controls left out)`
                  }
                  done={d.plan.towards}
                  total={d.plan.wanted}
                  mine={false}
                  source={null}
                />
              )}
              {d.labelledBy.length === 0 && <p className="muted small">Nobody has labelled yet.</p>}
              {d.labelledBy.map((p) => {
                const row = (
                  <Progress
                    key={p.annotatorId}
                    name={p.name}
                    done={p.labelled}
                    total={d.targets}
                    mine={p.annotatorId === annotatorId}
                    source={p.source ? { annotatorId: p.annotatorId, onRenamed: list.reload } : null}
                  />
                )
                return p.source && manySources(d.labelledBy) ? null : row
              })}
              {manySources(d.labelledBy) && (
                <details className="many-sources">
                  <summary className="small">
                    {d.labelledBy.filter((p) => p.source).length} sets of reference labels imported with the
                    dataset (not people)
                  </summary>
                  {d.labelledBy
                    .filter((p) => p.source)
                    .map((p) => (
                      <Progress
                        key={p.annotatorId}
                        name={p.name}
                        done={p.labelled}
                        total={d.targets}
                        mine={false}
                        source={{ annotatorId: p.annotatorId, onRenamed: list.reload }}
                      />
                    ))}
                </details>
              )}
            </div>
            <div className="dataset-actions">
              <button
                type="button"
                className="primary"
                onClick={() => navigate({ view: 'annotate', datasetId: d.id })}
                disabled={d.targets === 0}
              >
                Annotate
              </button>
              <button type="button" onClick={() => navigate({ view: 'items', datasetId: d.id })}>
                Items
              </button>
              <button type="button" onClick={() => navigate({ view: 'units', datasetId: d.id })}>
                Units
              </button>
              <button type="button" onClick={() => navigate({ view: 'agreement', datasetId: d.id })}>
                Agreement
              </button>
            </div>
            <DatasetExchange dataset={d} annotatorId={annotatorId} onMerged={reload} />
            <GoldRulePanel dataset={d} />
          </article>
        ))}
      </div>
      {importing && (
        <Suspense fallback={<Loading what="the import" />}>
          <ImportWizard
            onClose={() => {
              setImporting(false)
              // Closed after a finished import: the new dataset belongs in the list.
              list.reload()
              names.reload()
            }}
            onImported={(datasetId) => {
              setImporting(false)
              list.reload()
              navigate({ view: 'items', datasetId })
            }}
          />
        </Suspense>
      )}
    </div>
  )
}

/** A crowd's ratings come as several sets of reference labels: past two, they fold away. */
const manySources = (rows: readonly { source: boolean }[]) => rows.filter((r) => r.source).length > 2

function Progress({
  name,
  title,
  done,
  total,
  mine,
  source,
}: {
  name: string
  title?: string
  done: number
  total: number
  mine: boolean
  /** The dataset's own reference labels: named as such, and renamable. */
  source: { annotatorId: number; onRenamed(): void } | null
}) {
  const pct = total === 0 ? 0 : Math.round((done / total) * 100)
  const rename = async () => {
    if (!source) return
    const next = window.prompt('Name of these reference labels', name)
    if (!next || next.trim() === name) return
    try {
      await api('workspace.renameSource', { annotatorId: source.annotatorId, name: next })
      source.onRenamed()
    } catch (e) {
      window.alert(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <>
      <div className={mine ? 'progress mine' : 'progress'}>
        <span className="progress-name" title={title}>
          {name}
          {mine && <span className="muted"> (you)</span>}
        </span>
        <span
          className="bar"
          role="progressbar"
          aria-label={`Labelled by ${name}`}
          aria-valuenow={done}
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuetext={`${fmt.format(done)} of ${fmt.format(total)}`}
        >
          <span style={{ width: `${pct}%` }} />
        </span>
        <span className="progress-num">
          {fmt.format(done)} / {fmt.format(total)}
        </span>
      </div>
      {source && (
        <p className="muted small progress-source" data-testid="reference-labels">
          {name}: the dataset's reference labels, imported with it (not a person).{' '}
          <button type="button" className="ghost tiny" onClick={rename}>
            Rename
          </button>
        </p>
      )}
    </>
  )
}
