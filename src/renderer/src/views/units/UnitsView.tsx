import { useEffect, useMemo, useState } from 'react'
import type { UnitEntry, UnitsPage } from '../../../../shared/contract/units'
import { countOf } from '../../../../shared/plural'
import { api, onEvent } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { useQuery } from '../../hooks'
import { hashToRoute } from '../../route'
import type { ViewProps } from '../types'
import { GeneratePanel } from './GeneratePanel'
import { groupKey, groupUnits, KIND_LABEL, moved, type UnitGroup } from './grouping'
import { DeletedUnits, ItemNav } from './ItemNav'
import { ItemPanel } from './ItemPanel'
import { type UnitActions, UnitList } from './UnitList'
import type { RowMode } from './UnitRow'
import { useUnitKeys } from './useUnitKeys'
import './units.css'

type Selection = { itemId: number } | { index: number }

function initialSelection(): Selection {
  const r = hashToRoute(window.location.hash)
  return r.view === 'units' && r.itemId !== undefined ? { itemId: r.itemId } : { index: 0 }
}

/** Every list the item can hold: present ones, plus empty ones so a unit can be added to them. */
function listsOf(page: UnitsPage): { group: UnitGroup; title: string }[] {
  const present = groupUnits(page.units)
  const byKey = new Map(present.map((g) => [g.key, g]))
  const kinds = new Set(present.map((g) => g.kind))
  if (kinds.size === 0) kinds.add('fact')
  const out: { group: UnitGroup; title: string }[] = []
  const push = (kind: UnitGroup['kind'], candidateId: number | null, title: string) => {
    const key = groupKey(kind, candidateId)
    out.push({ group: byKey.get(key) ?? { key, kind, candidateId, units: [] }, title })
  }
  if (kinds.has('fact')) push('fact', null, 'Facts — judged against every answer')
  for (const c of page.candidates)
    for (const kind of ['triplet', 'sentence', 'whole'] as const)
      if (kinds.has(kind)) push(kind, c.id, `${KIND_LABEL[kind]} of “${c.variant}”`)
  return out
}

export function UnitsView({ datasetId, navigate }: ViewProps) {
  const [sel, setSel] = useState<Selection>(initialSelection)
  const [focusedId, setFocusedId] = useState<number | null>(null)
  const [mode, setModeState] = useState<{ unitId: number; mode: RowMode } | null>(null)
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null)
  const page = useQuery(
    async () => (datasetId === null ? undefined : api('units.list', { datasetId, ...sel })),
    [datasetId, 'itemId' in sel ? sel.itemId : -1, 'index' in sel ? sel.index : -1],
  )
  // Back and forward in the browser move between items too.
  useEffect(() => {
    const onHash = () => {
      const r = hashToRoute(window.location.hash)
      if (r.view === 'units' && r.itemId !== undefined) setSel({ itemId: r.itemId })
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  // Label counts decide whether an edit versions a unit, so they follow other people's labelling.
  const { reload } = page
  useEffect(
    () => onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
    [datasetId, reload],
  )
  const data = page.data
  const lists = useMemo(() => (data ? listsOf(data) : []), [data])
  const flat = useMemo(() => lists.flatMap((l) => l.group.units), [lists])

  const goItem = (itemId: number | null) => {
    if (itemId === null || datasetId === null) return
    setSel({ itemId })
    setFocusedId(null)
    setModeState(null)
    setSelected(new Set())
    navigate({ view: 'units', datasetId, itemId })
  }

  /** Runs one change, reports it in the status line, and reloads the item. */
  const run = async (work: () => Promise<string>) => {
    try {
      setStatus({ text: await work(), error: false })
    } catch (e) {
      setStatus({ text: e instanceof Error ? e.message : String(e), error: true })
    }
    page.reload()
  }

  const actions: UnitActions = {
    focus: setFocusedId,
    setMode: (unitId, m) => {
      setFocusedId(unitId)
      setModeState(m ? { unitId, mode: m } : null)
    },
    save: (u, edit) =>
      run(async () => {
        const r = await api('units.edit', { unitId: u.id, ...edit })
        setModeState(null)
        setFocusedId(r.unit.id)
        return r.versioned
          ? `Saved as version ${r.unit.version}; the labels stay with version ${u.version}.`
          : 'Saved.'
      }),
    split: (u, pieces) =>
      run(async () => {
        const parts = await api('units.split', { unitId: u.id, ...pieces })
        setModeState(null)
        setFocusedId(parts[0]?.id ?? null)
        return `Split into ${parts.length} units.`
      }),
    remove: (u: UnitEntry) =>
      run(async () => {
        await api('units.delete', { unitId: u.id })
        const i = flat.findIndex((x) => x.id === u.id)
        setFocusedId(flat[i + 1]?.id ?? flat[i - 1]?.id ?? null)
        return u.labels > 0 ? 'Deleted; its labels are kept and it can be restored below.' : 'Deleted.'
      }),
    move: (group, id, by) => {
      const order = moved(
        group.units.map((u) => u.id),
        id,
        by,
      )
      if (!order || !data?.item) return
      const itemId = data.item.id
      void run(async () => {
        await api('units.reorder', {
          itemId,
          kind: group.kind,
          candidateId: group.candidateId,
          orderedIds: order,
        })
        return 'Order saved.'
      })
    },
    toggleSelect: (id) =>
      setSelected((s) => {
        const next = new Set(s)
        if (!next.delete(id)) next.add(id)
        return next
      }),
    merge: (ids, text) =>
      run(async () => {
        const r = await api('units.merge', { unitIds: ids, text })
        setSelected(new Set())
        setFocusedId(r.unit.id)
        return `Merged ${ids.length} units.`
      }),
    add: (group, content) => {
      if (!data?.item) return
      const itemId = data.item.id
      void run(async () => {
        const u = await api('units.add', {
          itemId,
          kind: group.kind,
          candidateId: group.candidateId,
          ...content,
        })
        setFocusedId(u.id)
        return 'Added.'
      })
    },
  }

  useUnitKeys({ flat, lists, focusedId, mode, actions, data, goItem })

  if (datasetId === null) return <p className="page units-hint">Choose a dataset first.</p>
  if (page.error && !data)
    return (
      <div className="page">
        <LoadFailed what="units" error={page.error} onRetry={page.reload} />
        <button type="button" onClick={() => setSel({ index: 0 })}>
          Go to the first item
        </button>
      </div>
    )
  if (!data)
    return (
      <div className="page">
        <Loading what="units" detail="Reading the item, its answers and their units." />
      </div>
    )
  if (!data.item) return <p className="page units-hint">This dataset has no items yet.</p>
  return (
    <div className="page units-view">
      <header className="page-head">
        <div>
          <h1>Units</h1>
          <p className="muted">
            Review units before labelling. A unit that already has labels is never rewritten: editing it makes
            a new version, and the labels stay with the text they were given on.
          </p>
        </div>
        <button
          type="button"
          title="Makes sentence units for every answer that has none yet; existing units are left as they are"
          onClick={() => {
            if (!window.confirm('Split every answer of this dataset into sentence units?')) return
            void run(async () => {
              const r = await api('units.splitSentences', { datasetId })
              return `Made ${countOf(r.units, 'sentence unit')} in ${countOf(r.candidates, 'answer')}.`
            })
          }}
        >
          Split all answers into sentences…
        </button>
      </header>
      <GeneratePanel datasetId={datasetId} onStarted={(text) => setStatus({ text, error: false })} />
      <ItemNav page={data} onItem={goItem} onIndex={(index) => setSel({ index })} />
      <p role="status" className={status?.error ? 'units-status units-error' : 'units-status'}>
        {status?.text ?? ''}
      </p>
      <div className="units-body">
        <ItemPanel page={data} run={run} />
        <div className="units-lists">
          {lists.map((l) => (
            <UnitList
              key={l.group.key}
              group={l.group}
              title={l.title}
              focusedId={focusedId}
              selected={selected}
              mode={mode}
              actions={actions}
            />
          ))}
          <DeletedUnits
            units={data.deleted}
            onRestore={(u) =>
              run(async () => {
                await api('units.restore', { unitId: u.id })
                return 'Restored.'
              })
            }
          />
        </div>
      </div>
    </div>
  )
}
