import { countOf } from '../../../../shared/plural'
import { api, isBrowserMode } from '../../api'
import { Dialog, DoneFooter, SaveTarget, WrittenFiles } from './ExchangeParts'
import { useDownload } from './useDownload'
import { useSaveFile } from './useExchange'

interface Props {
  dataset: { id: number; name: string }
  annotator: { id: number; name: string }
  onClose(): void
}

/** Writes the current annotator's labels of one dataset as a file a colleague can merge. */
export function BundlePanel({ dataset, annotator, onClose }: Props) {
  const task = useSaveFile(
    `${dataset.id}:${annotator.id}`,
    async () =>
      (await api('exports.defaults', { datasetId: dataset.id, annotatorId: annotator.id })).bundleFile,
    (out) =>
      api('exports.bundle', { datasetId: dataset.id, annotatorId: annotator.id, ...(out ? { out } : {}) }),
  )
  const done = task.result
  const browser = isBrowserMode()
  const dl = useDownload(() =>
    api('exports.downloadBundle', { datasetId: dataset.id, annotatorId: annotator.id }),
  )

  return (
    <Dialog id="bundle-title" title={`Bundle ${annotator.name}’s labels`} onClose={onClose}>
      {done ? (
        <>
          <WrittenFiles
            title={`${countOf(done.labels, 'label')} of “${dataset.name}” written to:`}
            files={[done.file]}
          />
          <p className="muted small">
            Send this file to whoever keeps the shared workspace; they merge it from their Datasets view.
          </p>
          <DoneFooter onClose={onClose} />
        </>
      ) : dl.done ? (
        <>
          <p className="success-text" role="status">
            Downloaded {dl.done}. Send this file to whoever keeps the shared workspace.
          </p>
          <DoneFooter onClose={onClose} />
        </>
      ) : (
        <>
          <p className="muted">
            Every label {annotator.name} gave in “{dataset.name}”, with its history, in one file another
            workspace holding the same dataset can merge.
          </p>
          <SaveTarget
            browser={browser}
            onClose={onClose}
            refusal="No bundle was written."
            failure={dl.failure ?? task.failure}
            download={{ run: dl.run, busy: dl.busy, label: 'Download bundle', busyLabel: 'Preparing…' }}
            save={{ run: task.save, busy: task.busy, label: 'Write bundle', busyLabel: 'Writing…' }}
            path={{ id: 'bundle-file', label: 'File', value: task.path, onChange: task.setPath }}
            server={{
              summary: 'Or write it to a file on the server’s machine',
              button: 'Write to this file',
            }}
          />
        </>
      )}
    </Dialog>
  )
}
