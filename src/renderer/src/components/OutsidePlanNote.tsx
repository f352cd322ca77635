import { useEffect } from 'react'
import { outsidePlanNote } from '../../../shared/outsidePlan'
import { api, onEvent } from '../api'
import { useQuery } from '../hooks'

/** Names the people the plan does not name, and where their labels count (src/shared/outsidePlan.ts). */
export function OutsidePlanNote({ datasetId }: { datasetId: number }) {
  const q = useQuery(() => api('projects.outsidePlan', { datasetId }), [datasetId])
  const { reload } = q
  useEffect(
    () => onEvent('labels.changed', (e) => e.datasetId === datasetId && reload()),
    [datasetId, reload],
  )
  const note = outsidePlanNote(q.data?.people ?? [])
  if (!note) return null
  return (
    <p className="notice-box" role="note" data-testid="outside-plan">
      {note}
    </p>
  )
}
