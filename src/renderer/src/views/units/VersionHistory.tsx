import { countOf } from '../../../../shared/plural'
import { verdictText } from '../../actions/keymap'
import { api } from '../../api'
import { useQuery } from '../../hooks'
import { useViewer } from '../../settings'

/** Every version of a unit, newest first, each with the labels given on that exact text. */
export function VersionHistory({ lineageId }: { lineageId: number }) {
  const viewer = useViewer()
  const q = useQuery(() => api('units.versions', { lineageId, viewer }), [lineageId, viewer])
  if (q.error) return <p className="units-error">{q.error}</p>
  if (!q.data) return <p className="units-hint">Loading versions…</p>
  return (
    <ul className="units-versions" aria-label="Versions">
      {[...q.data].reverse().map((v) => (
        <li key={v.unit.id} data-testid="unit-version" className={v.unit.supersededBy ? 'old' : 'current'}>
          <div>
            <strong>v{v.unit.version}</strong>
            {v.unit.supersededBy === null ? (v.unit.deletedAt ? ' (deleted)' : ' (current)') : ''} —{' '}
            <span className="units-version-text">{v.unit.text}</span>
          </div>
          {v.labels.length === 0 && v.hiddenLabels === 0 && v.verdicts === 0 ? (
            <div className="units-hint">No labels on this version.</div>
          ) : (
            <ul className="units-version-labels">
              {v.labels.map((l) => (
                <li key={`${l.annotator}:${l.variant}`}>
                  {l.annotator} on <em>{l.variant}</em>:{' '}
                  <strong>{l.verdict === null ? 'cleared' : verdictText(l.verdict)}</strong>
                  {l.note ? ` — ${l.note}` : ''}
                </li>
              ))}
              {v.hiddenLabels > 0 && (
                <li className="units-hint">
                  {countOf(v.hiddenLabels, 'label')} by others hidden while blind mode is on, until you label
                  this unit
                </li>
              )}
              {v.verdicts > 0 && <li>{countOf(v.verdicts, 'judge verdict')}</li>}
            </ul>
          )}
        </li>
      ))}
    </ul>
  )
}
