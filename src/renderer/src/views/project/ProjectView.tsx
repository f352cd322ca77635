import { useEffect, useState } from 'react'
import { countOf } from '../../../../shared/plural'
import { api, onEvent } from '../../api'
import { LoadFailed, Loading } from '../../components/Loading'
import { useQuery } from '../../hooks'
import { useSettings } from '../../settings'
import type { ViewProps } from '../types'
import { ControlsPanel } from './ControlsPanel'
import { DashboardTables } from './DashboardTables'
import { GuidelinesEditor } from './GuidelinesEditor'
import { PlanForm } from './PlanForm'
import './project.css'

/** The lead's screen: the plan, guidelines, controls, and the project's progress in one place. */
export function ProjectView({ datasetId, annotatorId }: ViewProps & { datasetId: number }) {
  const { settings } = useSettings()
  const q = useQuery(() => api('projects.dashboard', { datasetId }), [datasetId])
  // The form is drawn afresh with the saved plan; this tells the new one to say "Saved.".
  const [planSaved, setPlanSaved] = useState(false)
  useEffect(
    () =>
      onEvent('labels.changed', (e) => {
        if (e.datasetId === datasetId) q.reload()
      }),
    [datasetId, q.reload],
  )
  // The header names the guidelines version: a save here or elsewhere moves it at once.
  useEffect(
    () =>
      onEvent('guidelines.changed', (e) => {
        if (e.datasetId === datasetId) q.reload()
      }),
    [datasetId, q.reload],
  )
  if (q.error && !q.data)
    return (
      <div className="page">
        <LoadFailed what="the project" error={q.error} onRetry={q.reload} />
      </div>
    )
  if (!q.data)
    return (
      <div className="page">
        <Loading what="the project" detail="Counting each person’s progress, controls and packages." />
      </div>
    )
  const d = q.data
  // A package a newer one replaced for the same person is neither out nor coming back.
  const current = d.packages.filter((p) => p.replacedBy === null)
  return (
    <div className="page project">
      <div className="page-head">
        <h1>Project</h1>
        <span className="muted">
          k = {d.plan.k} · {d.plan.policy} · guidelines{' '}
          {d.plan.guidelinesVersion === null ? 'none' : `v${d.plan.guidelinesVersion}`} ·{' '}
          {countOf(d.controls.count, 'control')}
          {/* A laptop hands out no packages: it holds one. */}
          {!d.plan.fromPackage && (
            <>
              {' '}
              · {countOf(current.length, 'package')} out, {current.filter((p) => p.returnedAt).length} back
            </>
          )}
        </span>
      </div>
      {d.plan.fromPackage ? (
        // A laptop holds one person's share of the lead's plan, which only the lead can change.
        <section className="card" aria-label="Plan">
          <h2>Plan</h2>
          <p className="notice-box" role="status">
            This workspace was opened from {d.plan.fromPackage.annotator}'s work package. The plan is the
            lead's: k = {d.plan.k}, {d.plan.policy} assignment. It is changed in the lead's workspace, as are
            the controls and the packages, and only {d.plan.fromPackage.annotator} labels here.
          </p>
        </section>
      ) : (
        <PlanForm
          key={`${d.plan.k}|${d.plan.policy}|${d.plan.seed}|${d.plan.annotators.length}`}
          plan={d.plan}
          packaged={[...new Set(d.packages.map((p) => p.annotator))]}
          justSaved={planSaved}
          onSaved={() => {
            setPlanSaved(true)
            q.reload()
          }}
        />
      )}
      <DashboardTables d={d} onChanged={q.reload} />
      {d.plan.fromPackage ? (
        // Marked at the lead's and carried without answers: a control set here would show its
        // answer to the person it checks, and would never travel back.
        <section className="card" aria-label="Controls">
          <h2>
            Control items <span className="muted">{d.controls.count} in this package</span>
          </h2>
          <p className="notice-box" data-testid="laptop-controls">
            Control items are the lead's: they came with {d.plan.fromPackage.annotator}'s package, without
            their answers, and are marked or cleared in the lead's workspace.
          </p>
        </section>
      ) : (
        <ControlsPanel datasetId={datasetId} count={d.controls.count} onChanged={q.reload} />
      )}
      <GuidelinesEditor
        datasetId={datasetId}
        author={annotatorId === null ? null : settings.annotatorName}
        laptop={d.plan.fromPackage?.annotator ?? null}
        onSaved={q.reload}
      />
    </div>
  )
}
