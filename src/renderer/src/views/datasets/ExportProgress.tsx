import { useEffect, useState } from 'react'
import type { EventPayload } from '../../../../shared/contract/events'
import { exportPhaseText } from '../../../../shared/exportProgress'
import { api, onEvent } from '../../api'

type Progress = EventPayload<'exports.progress'>

let made = 0
/** A name for one export, so its progress events are told apart and it can be cancelled. */
export function newExportId(): string {
  made++
  return `export-${Date.now().toString(36)}-${made}-${Math.random().toString(36).slice(2, 8)}`
}

/** The latest progress of the export named `exportId` (null before its first report). */
export function useExportProgress(exportId: string | null): Progress | null {
  const [progress, setProgress] = useState<Progress | null>(null)
  useEffect(() => {
    setProgress(null)
    if (exportId === null) return
    const stop = onEvent('exports.progress', (p) => {
      if (p.exportId === exportId) setProgress(p)
    })
    return () => {
      stop()
    }
  }, [exportId])
  return progress
}

/**
 * How far an export is (rows written of the total, then the card) and a Cancel that stops it at
 * its next batch; main then removes whatever it had begun to write.
 */
export function ExportProgress({ exportId }: { exportId: string }) {
  const progress = useExportProgress(exportId)
  const [cancelling, setCancelling] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const rows = progress?.phase === 'rows' ? progress : null
  function cancel() {
    setCancelling(true)
    api('exports.cancel', { exportId }).then(
      (r) => {
        if (!r.cancelled) setProblem('The export had already finished.')
      },
      (e: unknown) => {
        setCancelling(false)
        setProblem(e instanceof Error ? e.message : String(e))
      },
    )
  }
  return (
    <div className="export-progress" role="status" aria-live="polite">
      <progress
        aria-label="Export progress"
        max={rows ? Math.max(rows.total, 1) : 1}
        value={rows ? rows.done : progress?.phase === 'card' ? 1 : 0}
      />
      <div className="export-progress-line">
        <span>{cancelling && !problem ? 'Cancelling the export…' : exportPhaseText(progress)}</span>
        <button type="button" onClick={cancel} disabled={cancelling}>
          Cancel export
        </button>
      </div>
      {problem && <p className="muted small">{problem}</p>}
    </div>
  )
}
