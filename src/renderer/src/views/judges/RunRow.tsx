import { useState } from 'react'
import type { EventPayload } from '../../../../shared/contract'
import type { RunInfo } from '../../../../shared/contract/runs'
import {
  costSplitLines,
  SPLIT_HEAD,
  SPLIT_PARTS_UNPRICED,
  SPLIT_PARTS_UNPRICED_SHORT,
  splitIsEmpty,
  splitPartsUnpriced,
} from '../../../../shared/costSplit'
import { formatCount } from '../../../../shared/plural'
import { REUSED_TITLE } from '../../../../shared/reusedReplies'
import { callWords } from '../../../../shared/runCalls'
import { NO_PRICE_TITLE, repeatWord, runCostParts } from '../../../../shared/runNames'
import { api } from '../../api'
import { ImproveDialog } from './ImproveDialog'
import { RunOutlook } from './RunOutlook'
import { VerdictExportPanel } from './VerdictExportPanel'

export type Progress = EventPayload<'runs.progress'>

function eta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return ''
  if (seconds < 60) return `${Math.ceil(seconds)} s left`
  return `${Math.ceil(seconds / 60)} min left`
}

const money = (x: number) => `$${x.toFixed(4)}`

const sentence = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}.`

/** Which state words to show: a run another process drives is not "interrupted". */
function statusWord(run: RunInfo, live: string): string {
  if (run.status === 'running' && !run.active) return run.heldBy ? 'running elsewhere' : 'interrupted'
  return live
}

/** One run: progress, counts and cost, and what can be done with it from here. */
export function RunRow({
  run,
  live,
  onChanged,
}: {
  run: RunInfo
  live: Progress | undefined
  onChanged(): void
}) {
  const [error, setError] = useState<string | null>(null)
  const [exporting, setExporting] = useState(false)
  const act = (name: 'judges.pause' | 'judges.cancel' | 'judges.resume') => async () => {
    try {
      await api(name, { runId: run.id })
      setError(null)
      onChanged()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const [improving, setImproving] = useState(false)
  const following = live && run.active
  const status = following ? live.status : run.status
  const done = following ? live.done : run.status === 'done' ? run.total : null
  const total = following ? live.total : run.total
  const pct = total > 0 && done !== null ? Math.round((done / total) * 100) : run.status === 'done' ? 100 : 0
  const cost = following ? live.cost : run.cost
  const held = run.heldBy
  const resumable = !run.active && ['paused', 'failed', 'queued', 'running'].includes(run.status)
  const hasVerdicts = run.verdicts + run.na + run.errors > 0
  const repeat = repeatWord(run.repeatIndex)
  // No $0 for a cost nobody knows, a run the cache answered whole says so, and so does one whose
  // calls paid the batch price, all or some of them (as Compare, metrics and `judge status` do).
  const price = runCostParts({ ...run, cost })
  return (
    <tr data-testid={`run-${run.id}`}>
      <td>
        #{run.id}
        {repeat ? ` (${repeat})` : ''}
        <div className="muted">
          {run.kind}
          {run.mode === 'batch' ? ' · batch' : ''}
        </div>
      </td>
      <td>
        {run.method}
        <div className="muted">
          {run.provider}/{run.model}
        </div>
      </td>
      <td className="jd-progress">
        <span
          className="bar"
          role="progressbar"
          aria-label={`Progress of run #${run.id}`}
          aria-valuenow={pct}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <span
            className={status === 'done' ? 'done' : status === 'failed' ? 'failed' : ''}
            style={{ width: `${pct}%` }}
          />
        </span>
        <div className="muted" data-testid="run-status">
          {/* An Improve run counts no candidates up front: no "0/0". */}
          {statusWord(run, status)} {done !== null && total > 0 ? `${done}/${total}` : ''}{' '}
          {run.active ? eta(live?.etaSeconds ?? null) : ''}
        </div>
        {held && (
          <div className="jd-held" data-testid="run-held">
            {sentence(held.message)}
          </div>
        )}
        {run.takeover && !held && <div className="muted small">{sentence(run.takeover)}</div>}
        {run.error && (
          <div className="error-text" data-testid="run-error">
            {run.error}
          </div>
        )}
        {run.errorClasses.length > 0 && !run.error && (
          <div className="error-text small" data-testid="run-error-classes">
            {run.errors} failed: {run.errorClasses.map((c) => `${c.count} ${c.name}`).join(', ')}
          </div>
        )}
        {/* A finished call-by-call run has nothing still to come: its row says it all. One that
            sent some calls in a batch before it went call by call shows that batch, as `judge status` does. */}
        {(run.mode === 'batch' ||
          run.batchCalls > 0 ||
          (!run.active && run.status !== 'done' && run.status !== 'cancelled')) && (
          <RunOutlook
            runId={run.id}
            version={`${run.status}:${run.calls}:${run.verdicts + run.na + run.errors}`}
          />
        )}
        {error && <div className="error-text">{error}</div>}
      </td>
      <td className="num">
        {run.verdicts} / {run.na} / {run.errors}
      </td>
      <td className="num">
        {/* The lexical baseline and imported verdicts ask no provider: nothing to count. */}
        {run.calls === 0 && (run.provider === 'lexical' || run.kind === 'imported') ? (
          <span className="muted">no calls</span>
        ) : (
          <>
            <span title={run.cached > 0 ? REUSED_TITLE : undefined} data-testid="run-calls">
              {callWords(run, false)}
            </span>
            {run.callErrors > 0 && (
              <div className="error-text small" data-testid="run-failed-calls">
                {run.callErrors} failed
              </div>
            )}
            <div className="muted">
              {formatCount(run.promptTokens)}+{formatCount(run.completionTokens)} tok
            </div>
          </>
        )}
        <div data-testid="run-cost">
          {price.amount === null ? (
            <span className="muted" title={NO_PRICE_TITLE}>
              — {price.marks.join(', ')}
            </span>
          ) : (
            <>
              {money(price.amount)}
              {price.marks.map((m) => (
                <div key={m} className="muted">
                  {m}
                </div>
              ))}
            </>
          )}
        </div>
        {/* The tokens by the price each was paid at, in the words Compare, metrics and the CLI use. */}
        {!splitIsEmpty(run.costSplit) && (
          <div className="muted small jd-split" data-testid="run-cost-split" title={SPLIT_HEAD}>
            {costSplitLines(run.costSplit, money, false).map((line) => (
              <div key={line}>{line}</div>
            ))}
            {splitPartsUnpriced(run.costSplit, run.cost) && (
              <div data-testid="run-split-unpriced" title={SPLIT_PARTS_UNPRICED}>
                {SPLIT_PARTS_UNPRICED_SHORT}
              </div>
            )}
          </div>
        )}
      </td>
      <td>
        <div className="row jd-run-actions">
          {run.active && (
            <button type="button" className="tiny" onClick={act('judges.pause')}>
              Pause
            </button>
          )}
          {resumable && (
            <button
              type="button"
              className="tiny"
              onClick={act('judges.resume')}
              disabled={held !== null}
              title={
                held ? `${sentence(held.message)} A driver silent for a minute is taken over.` : undefined
              }
            >
              Resume
            </button>
          )}
          {run.status !== 'done' && run.status !== 'cancelled' && !held && (
            <button type="button" className="tiny danger" onClick={act('judges.cancel')}>
              Cancel
            </button>
          )}
          {/* Only a DCR run with verdicts has inconsistent sentences to rewrite. */}
          {run.status === 'done' && run.kind === 'judge' && run.method === 'dcr' && run.verdicts > 0 && (
            <button type="button" className="tiny" onClick={() => setImproving(true)}>
              Improve (RAI)…
            </button>
          )}
          {hasVerdicts && (
            <button
              type="button"
              className="tiny"
              aria-label="Export verdicts…"
              title="Export this run's verdicts"
              onClick={() => setExporting(true)}
            >
              Export…
            </button>
          )}
        </div>
        {exporting && <VerdictExportPanel run={run} onClose={() => setExporting(false)} />}
        {improving && <ImproveDialog run={run} onClose={() => setImproving(false)} onStarted={onChanged} />}
      </td>
    </tr>
  )
}
