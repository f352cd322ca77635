import { useEffect, useState } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import type { RunInfo } from '../../../../shared/contract/runs'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { Dialog } from '../datasets/ExchangeParts'

type Plan = CallOutput<'judges.improvePlan'>

const ROUNDS = [1, 2, 3, 4, 5] as const

/** What the rounds will do, in the words of `factlab judge improve --rounds`. */
function planWords(run: RunInfo, plan: Plan, rounds: number): string[] {
  const variants = plan.variants.join(', ')
  const out = [
    `Round 1 rewrites ${countOf(plan.candidates, 'answer')} with a sentence judged inconsistent (${countOf(plan.inconsistent, 'sentence')}): one rewrite call each to ${run.provider}/${run.model}, then each rewrite is split into sentences and judged again with DCR.`,
    `The rewrites are added as ${plan.variants.length === 1 ? 'a new variant' : 'new variants'} ${variants}; the answers themselves are not changed.`,
  ]
  if (rounds > 1)
    out.push(
      `Rounds 2 to ${rounds} rewrite only what is still inconsistent (+rai2, …), and stop early when nothing is left to correct.`,
    )
  if (plan.unjudged > 0)
    out.push(
      `${countOf(plan.unjudged, 'sentence')} the judge gave no verdict on ${plan.unjudged === 1 ? 'is' : 'are'} not inconsistent and ${plan.unjudged === 1 ? 'is' : 'are'} left as ${plan.unjudged === 1 ? 'it is' : 'they are'}.`,
    )
  return out
}

/** Asks before an improvement (RAI) run: how many rounds, and says what they will call and add. */
export function ImproveDialog({
  run,
  onClose,
  onStarted,
}: {
  run: RunInfo
  onClose(): void
  onStarted(): void
}) {
  const [plan, setPlan] = useState<Plan | null>(null)
  const [rounds, setRounds] = useState(1)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    api('judges.improvePlan', { runId: run.id }).then(setPlan, (e) =>
      setError(e instanceof Error ? e.message : String(e)),
    )
  }, [run.id])
  const start = async () => {
    setBusy(true)
    try {
      await api('judges.improve', { runId: run.id, rounds })
      onStarted()
      onClose()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
      setBusy(false)
    }
  }
  return (
    <Dialog id="improve-title" title={`Improve run #${run.id} (RAI)`} onClose={onClose}>
      {!plan && !error && <p className="muted">Reading the run's verdicts…</p>}
      {plan?.nothing && (
        <p className="notice-box" role="status" data-testid="improve-nothing">
          {plan.nothing}.
        </p>
      )}
      {plan && !plan.nothing && (
        <>
          <label className="field">
            <span>Rounds</span>
            <select value={rounds} onChange={(e) => setRounds(Number(e.target.value))} aria-label="Rounds">
              {ROUNDS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <div data-testid="improve-plan">
            {planWords(run, plan, rounds).map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        </>
      )}
      {error && <p className="error-box">{error}</p>}
      <footer className="modal-foot row">
        <button type="button" onClick={onClose}>
          {plan?.nothing ? 'Close' : 'Cancel'}
        </button>
        {plan && !plan.nothing && (
          <button type="button" className="primary" disabled={busy} onClick={() => void start()}>
            Rewrite {countOf(plan.candidates, 'answer')}
            {rounds > 1 ? ` (up to ${rounds} rounds)` : ''}
          </button>
        )}
      </footer>
    </Dialog>
  )
}
