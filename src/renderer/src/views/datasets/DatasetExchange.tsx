import { Suspense, useState } from 'react'
import type { DatasetSummary } from '../../../../shared/contract/datasets'
import { Loading } from '../../components/Loading'
import { lazyNamed } from '../../lazyNamed'
import { useSettings } from '../../settings'
import { useExportRequest } from './menuCommands'
import './exchange.css'

// Opened by a click, so loaded then: the first screen does not wait for them.
const BundlePanel = lazyNamed(() => import('./BundlePanel'), 'BundlePanel')
const ExportPanel = lazyNamed(() => import('./ExportPanel'), 'ExportPanel')
const MergePanel = lazyNamed(() => import('./MergePanel'), 'MergePanel')

interface Props {
  dataset: DatasetSummary
  annotatorId: number | null
  /** Progress and labels changed: the list reloads. */
  onMerged(): void
}

/** A dataset card's way out (export, bundle) and in (merge a colleague's bundle). */
export function DatasetExchange({ dataset, annotatorId, onMerged }: Props) {
  const { settings } = useSettings()
  const [open, setOpen] = useState<'export' | 'bundle' | 'merge' | null>(null)
  const [menuAsked, clearMenu] = useExportRequest(dataset.id)
  const showing = menuAsked ? 'export' : open
  const close = () => {
    clearMenu()
    setOpen(null)
  }
  const me =
    annotatorId === null
      ? null
      : {
          id: annotatorId,
          name:
            dataset.labelledBy.find((p) => p.annotatorId === annotatorId)?.name ??
            settings.annotatorName ??
            'me',
        }
  const ref = { id: dataset.id, name: dataset.name }

  return (
    <div className="dataset-exchange">
      <span className="eyebrow">Share</span>
      <button type="button" onClick={() => setOpen('export')}>
        Export…
      </button>
      <button
        type="button"
        onClick={() => setOpen('bundle')}
        disabled={me === null}
        title={me === null ? 'Choose who is labelling first' : undefined}
      >
        Bundle my labels
      </button>
      <button type="button" onClick={() => setOpen('merge')}>
        Merge a bundle…
      </button>
      <Suspense fallback={<Loading what={showing === 'merge' ? 'the merge' : 'the export'} />}>
        {showing === 'export' && (
          <ExportPanel dataset={ref} annotators={dataset.labelledBy.map((p) => p.name)} onClose={close} />
        )}
        {showing === 'bundle' && me && <BundlePanel dataset={ref} annotator={me} onClose={close} />}
        {showing === 'merge' && <MergePanel dataset={ref} onClose={close} onMerged={onMerged} />}
      </Suspense>
    </div>
  )
}
