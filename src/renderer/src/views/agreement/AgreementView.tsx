import { useEffect, useState } from 'react'
import { api, onEvent } from '../../api'
import { QueryGate } from '../../components/Loading'
import { OutsidePlanNote } from '../../components/OutsidePlanNote'
import { useQuery } from '../../hooks'
import { type AgreementSplit, AgreementSplitBar } from '../project/AgreementSplit'
import type { ViewProps } from '../types'
import { QueuePanel } from './QueuePanel'
import { SummaryPanel } from './SummaryPanel'
import './agreement.css'

/** How far annotators agree, and the queue where an adjudicator settles their disagreements. */
export function AgreementView({ datasetId, annotatorId }: ViewProps) {
  const [split, setSplit] = useState<AgreementSplit>({})
  const summary = useQuery(
    async () => (datasetId === null ? undefined : api('agreement.summary', { datasetId, ...split })),
    [datasetId, split],
  )
  const { reload } = summary
  useEffect(
    () => onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
    [datasetId, reload],
  )
  if (datasetId === null) return <p className="page agr-hint">Choose a dataset first.</p>
  return (
    <div className="page agr-view">
      <header className="page-head">
        <div>
          <h1>Agreement</h1>
          <p className="muted">
            How far the people labelling agree (the dataset’s own reference labels are compared apart), and
            the targets where they do not. An adjudicator’s decision becomes the gold verdict for that target.
          </p>
        </div>
      </header>
      <OutsidePlanNote datasetId={datasetId} />
      <AgreementSplitBar datasetId={datasetId} value={split} onChange={setSplit} />
      {summary.error && summary.data && <p className="agr-error">{summary.error}</p>}
      <QueryGate
        query={summary}
        what="agreement"
        detail="Comparing every person’s labels target by target; on a large dataset this takes a few seconds."
      >
        {(s) => (s === undefined ? null : <SummaryPanel summary={s} />)}
      </QueryGate>
      <h2>Adjudication queue</h2>
      <QueuePanel
        datasetId={datasetId}
        adjudicatorId={annotatorId}
        variants={Object.keys(summary.data?.byVariant ?? {})}
      />
    </div>
  )
}
