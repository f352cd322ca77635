import { useState } from 'react'
import type { MergeReport } from '../../../../shared/contract/exports'
import { api } from '../../api'
import { sourceOf } from '../../fileSource'
import { ActionFooter, Dialog, DoneFooter, Refusal } from './ExchangeParts'
import { useTask } from './useExchange'

interface Props {
  dataset: { id: number; name: string }
  onClose(): void
  onMerged(): void
}

const OUTCOMES: { key: keyof Omit<MergeReport, 'dataset' | 'annotator' | 'recreated'>; label: string }[] = [
  { key: 'added', label: 'Added' },
  { key: 'updated', label: 'Updated' },
  { key: 'unchanged', label: 'Unchanged' },
  { key: 'kept_local', label: 'Kept local' },
  { key: 'earlier_versions', label: 'On earlier unit versions' },
  { key: 'recreated_versions', label: 'Unit versions recreated' },
]

/** Upload a colleague's bundle into this dataset; all or nothing, and the outcome counted. */
export function MergePanel({ dataset, onClose, onMerged }: Props) {
  const [picked, setPicked] = useState<File | null>(null)
  const task = useTask<MergeReport>()
  const report = task.result

  function pick(f: File | undefined) {
    if (!f) return
    task.setFailure(null)
    setPicked(f)
  }

  function run() {
    if (!picked) return
    void task.run(async () => {
      const merged = await api('exports.mergeBundle', {
        source: await sourceOf(picked),
        datasetId: dataset.id,
      })
      onMerged()
      return merged
    })
  }

  return (
    <Dialog id="merge-title" title={`Merge a bundle into “${dataset.name}”`} onClose={onClose}>
      {report ? (
        <>
          <p className="success-text" role="status">
            Merged {report.annotator}’s labels.
          </p>
          <dl className="merge-report" aria-label="Merge outcome">
            {OUTCOMES.map((o) => (
              <div key={o.key}>
                <dt>{o.label}</dt>
                <dd data-testid={`merge-${o.key}`}>{report[o.key]}</dd>
              </div>
            ))}
          </dl>
          <p className="muted small">
            Where both sides had changed a label, the newer one is current and the other stays in its history.
          </p>
          {report.recreated.length > 0 && (
            <details>
              <summary>Unit versions this workspace did not have, recreated for their labels</summary>
              <ul aria-label="Recreated unit versions">
                {report.recreated.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once shown
                  <li key={i}>
                    {r.item} · {r.deleted ? 'deleted' : 'earlier'} {r.kind}: “{r.text}”
                  </li>
                ))}
              </ul>
            </details>
          )}
          <DoneFooter onClose={onClose} />
        </>
      ) : (
        <>
          <label className="dropzone">
            <input
              className="visually-hidden"
              type="file"
              accept=".jsonl,.json"
              onChange={(e) => pick(e.target.files?.[0])}
              aria-label="Bundle file"
            />
            <span className="pseudo-button">Choose bundle…</span>
            {picked ? (
              <strong>{picked.name}</strong>
            ) : (
              <span className="muted">a .bundle.jsonl file written by “Bundle my labels”</span>
            )}
          </label>
          {task.failure && <Refusal headline="Nothing was merged." text={task.failure} />}
          <ActionFooter
            onClose={onClose}
            onRun={run}
            busy={task.busy}
            disabled={!picked}
            label="Merge"
            busyLabel="Merging…"
          />
        </>
      )}
    </Dialog>
  )
}
