import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { useQuery } from '../../hooks'

export interface AgreementSplit {
  guidelinesVersion?: number
  includeControls?: boolean
}

/**
 * The Agreement view's project filters: figures for the labels given under one guidelines
 * version, and control items counted in (they are left out unless asked). Shown only when the
 * dataset has guidelines or controls.
 */
export function AgreementSplitBar({
  datasetId,
  value,
  onChange,
}: {
  datasetId: number
  value: AgreementSplit
  onChange(v: AgreementSplit): void
}) {
  const q = useQuery(
    () =>
      Promise.all([api('projects.guidelines', { datasetId }), api('projects.controls', { datasetId })]).then(
        ([g, c]) => ({
          versions: [g.current, ...g.history].flatMap((v) => (v ? [v.version] : [])),
          controls: c.length,
        }),
      ),
    [datasetId],
  )
  if (!q.data || (q.data.versions.length === 0 && q.data.controls === 0)) return null
  return (
    <fieldset className="agr-split">
      {q.data.versions.length > 0 && (
        <label>
          Guidelines version{' '}
          <select
            value={value.guidelinesVersion ?? ''}
            onChange={(e) =>
              onChange({
                ...value,
                guidelinesVersion: e.target.value === '' ? undefined : Number(e.target.value),
              })
            }
          >
            <option value="">all labels</option>
            {q.data.versions.map((v) => (
              <option key={v} value={v}>
                labels given under version {v}
              </option>
            ))}
          </select>
        </label>
      )}
      {q.data.controls > 0 && (
        <label>
          <input
            type="checkbox"
            checked={value.includeControls ?? false}
            onChange={(e) => onChange({ ...value, includeControls: e.target.checked })}
          />{' '}
          count the {countOf(q.data.controls, 'control item')}
        </label>
      )}
    </fieldset>
  )
}
