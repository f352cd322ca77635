import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ItemFilter, ItemRow } from '../../../../shared/contract/datasets'
import { countOf } from '../../../../shared/plural'
import { api, onEvent } from '../../api'
import { LoadFailed } from '../../components/Loading'
import { useDebounced, useQuery } from '../../hooks'
import { useViewer } from '../../settings'
import type { ViewProps } from '../types'

const PAGE = 100
const ROW_HEIGHT = 52

type Status = ItemFilter['status']

const STATUS_LABELS: Record<Status, string> = {
  all: 'All items',
  unlabelled: 'Not yet labelled by me',
  disputed: 'Disputed',
  judgeDisagreement: 'Judge disagrees with a label',
}

/**
 * Pages of rows fetched as they scroll into view; a filter change starts a new generation so
 * pages of the old filter arriving late are dropped.
 */
function usePagedItems(datasetId: number, annotatorId: number | null, filter: ItemFilter) {
  const [total, setTotal] = useState<number | null>(null)
  const [pages, setPages] = useState<Map<number, ItemRow[]>>(new Map())
  const [error, setError] = useState<string | null>(null)
  const requested = useRef(new Set<number>())
  const generation = useRef(0)
  const viewer = useViewer()
  const key = JSON.stringify([datasetId, annotatorId, filter, viewer])

  // biome-ignore lint/correctness/useExhaustiveDependencies: key captures datasetId, annotatorId and filter
  const fetchPage = useCallback(
    (page: number, gen: number) => {
      requested.current.add(page)
      api('datasets.items', {
        datasetId,
        annotatorId,
        filter,
        viewer,
        offset: page * PAGE,
        limit: PAGE,
      }).then(
        (r) => {
          if (gen !== generation.current) return
          setTotal(r.total)
          setPages((m) => new Map(m).set(page, r.rows))
        },
        (e: unknown) => gen === generation.current && setError(e instanceof Error ? e.message : String(e)),
      )
    },
    [key],
  )

  const reset = useCallback(() => {
    generation.current++
    requested.current = new Set()
    setPages(new Map())
    setError(null)
    fetchPage(0, generation.current)
  }, [fetchPage])

  useEffect(reset, [reset])

  const ensure = useCallback(
    (index: number) => {
      const page = Math.floor(index / PAGE)
      if (!requested.current.has(page)) fetchPage(page, generation.current)
    },
    [fetchPage],
  )
  const row = (index: number) => pages.get(Math.floor(index / PAGE))?.[index % PAGE]
  return { total, row, ensure, error, reset }
}

/** Every item of a dataset in a virtualised table, filtered, with my progress per item. */
export function ItemsView({ datasetId, annotatorId, navigate }: ViewProps) {
  const dataset = useQuery(() => api('datasets.brief', { datasetId: datasetId! }), [datasetId])
  const [status, setStatus] = useState<Status>('all')
  const [variant, setVariant] = useState<string | null>(null)
  const [searchText, setSearchText] = useState('')
  const search = useDebounced(searchText, 250)
  const filter: ItemFilter = { status, variant, search }
  const items = usePagedItems(datasetId!, annotatorId, filter)
  const scroller = useRef<HTMLDivElement>(null)
  const { reset } = items
  useEffect(() => onEvent('labels.changed', (p) => p.datasetId === datasetId && reset()), [datasetId, reset])

  const virtual = useVirtualizer({
    count: items.total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  })
  const visible = virtual.getVirtualItems()
  const { ensure } = items
  useEffect(() => {
    for (const v of visible) ensure(v.index)
  }, [visible, ensure])

  const open = (r: ItemRow) => navigate({ view: 'annotate', datasetId: datasetId!, itemId: r.itemId })

  return (
    <div className="page page-fill">
      <header className="page-head">
        <div>
          <h1>{dataset.data?.name ?? 'Items'}</h1>
          <p className="muted">
            {items.total === null
              ? 'Loading items…'
              : status !== 'all' || variant || search
                ? `${countOf(items.total, 'item matches', 'items match')} the filters`
                : countOf(items.total, 'item')}
          </p>
        </div>
        <button
          type="button"
          className="primary"
          onClick={() => navigate({ view: 'annotate', datasetId: datasetId! })}
        >
          Annotate next unlabelled
        </button>
      </header>
      <search className="filters">
        <fieldset className="segmented" aria-label="Show">
          {(Object.keys(STATUS_LABELS) as Status[]).map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={status === s}
              className={status === s ? 'active' : ''}
              onClick={() => setStatus(s)}
              disabled={s === 'unlabelled' && annotatorId === null}
            >
              {STATUS_LABELS[s]}
            </button>
          ))}
        </fieldset>
        <select
          aria-label="Variant"
          value={variant ?? ''}
          onChange={(e) => setVariant(e.target.value || null)}
        >
          <option value="">All variants</option>
          {dataset.data?.variants.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
        <input
          type="search"
          placeholder="Search questions, references, answers, units…"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          aria-label="Search"
        />
      </search>
      {items.error && <LoadFailed what="the items" error={items.error} onRetry={items.reset} />}
      <section className="table items-table" aria-label="Items">
        <div className="tr th">
          <span>#</span>
          <span>Question / reference</span>
          <span>Variants</span>
          <span>My progress</span>
          <span>Disputed</span>
        </div>
        <div className="tbody" ref={scroller} aria-busy={items.total === null}>
          {items.total === null && !items.error && <SkeletonRows count={8} />}
          {items.total === 0 && <p className="empty-row muted">No items match these filters.</p>}
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {visible.map((v) => {
              const r = items.row(v.index)
              return (
                <button
                  key={v.key}
                  type="button"
                  className="tr"
                  disabled={!r}
                  aria-busy={!r}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
                  onClick={() => r && open(r)}
                >
                  {r ? <Row r={r} /> : <SkeletonCells />}
                </button>
              )
            })}
          </div>
        </div>
      </section>
    </div>
  )
}

/** A row whose page is still being fetched: grey bars where its text will be, not a bare "…". */
function SkeletonCells() {
  return (
    <>
      <span className="skeleton" />
      <span>
        <span className="skeleton" />
        <span className="skeleton short" />
      </span>
      <span className="skeleton" />
      <span className="skeleton" />
      <span />
    </>
  )
}

/** Before the first page says how many items there are: a screenful of placeholder rows. */
function SkeletonRows({ count }: { count: number }) {
  return (
    <div role="status" aria-label="Loading items" data-testid="items-skeleton">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity but their place
        <div key={i} className="tr skeleton-row" style={{ height: ROW_HEIGHT }}>
          <SkeletonCells />
        </div>
      ))}
    </div>
  )
}

function Row({ r }: { r: ItemRow }) {
  const pct = r.targets === 0 ? 0 : Math.round((r.labelledByMe / r.targets) * 100)
  return (
    <>
      <span className="num muted">{r.position + 1}</span>
      <span className="text-cell">
        <span className="q">{r.question ?? r.referencePreview}</span>
        <span className="ref muted">{r.question ? r.referencePreview : `id ${r.extId}`}</span>
      </span>
      <span className="chips" title={r.variants.join(', ')}>
        {r.variants.map((v) => (
          <span key={v} className="chip subtle">
            {v}
          </span>
        ))}
      </span>
      <span className="progress compact">
        <span className="bar">
          <span style={{ width: `${pct}%` }} className={pct === 100 ? 'done' : ''} />
        </span>
        <span className="progress-num">
          {r.labelledByMe}/{r.targets}
        </span>
      </span>
      <span>{r.disputed > 0 ? <span className="chip warn">{r.disputed}</span> : ''}</span>
    </>
  )
}
