import { countOf } from '../../../../shared/plural'
import { api, isBrowserMode } from '../../api'
import { ActionFooter, Dialog, DoneFooter, PathField, Refusal, WrittenFiles } from './ExchangeParts'
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
          {browser ? (
            <>
              {(dl.failure ?? task.failure) && (
                <Refusal headline="No bundle was written." text={(dl.failure ?? task.failure)!} />
              )}
              <ActionFooter
                onClose={onClose}
                onRun={dl.run}
                busy={dl.busy || task.busy}
                label="Download bundle"
                busyLabel="Preparing…"
              />
              <details className="export-server">
                <summary>Or write it to a file on the server’s machine</summary>
                <PathField id="bundle-file" label="File" value={task.path} onChange={task.setPath} />
                <button type="button" onClick={task.save} disabled={task.busy}>
                  Write to this file
                </button>
              </details>
            </>
          ) : (
            <>
              <PathField id="bundle-file" label="File" value={task.path} onChange={task.setPath} />
              {task.failure && <Refusal headline="No bundle was written." text={task.failure} />}
              <ActionFooter
                onClose={onClose}
                onRun={task.save}
                busy={task.busy}
                label="Write bundle"
                busyLabel="Writing…"
              />
            </>
          )}
        </>
      )}
    </Dialog>
  )
}
