import { batchCountWords, batchIdWords, batchStateWords } from '../../../../shared/batchWords'
import { countOf } from '../../../../shared/plural'
import { expectedAmount } from '../../../../shared/runNames'
import { api } from '../../api'
import { useQuery } from '../../hooks'

const sentence = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}.`

/**
 * What `factlab judge status` says of a run that is not finished, or that went through batches:
 * the provider batches (ids, states, counts), the cost it is heading for and what that rests on,
 * and which template versions its calls send.
 */
export function RunOutlook({ runId, version }: { runId: number; version: string }) {
  const status = useQuery(() => api('judges.batches', { runId }), [runId, version])
  const s = status.data
  if (!s) return null
  const finished = s.status === 'done' || s.status === 'cancelled'
  const expected = expectedAmount(s)
  if (finished && s.batches.length === 0) return null
  return (
    <div className="small jd-outlook" data-testid="run-outlook">
      {s.batches.length > 0 && (
        <ul className="jd-batches" data-testid="run-batches">
          {s.batches.map((b) => (
            <li key={b.id}>
              <code>{batchIdWords(b)}</code> <span data-testid="batch-state">{batchStateWords(b)}</span>{' '}
              <span className="num">{batchCountWords(b)}</span>
            </li>
          ))}
        </ul>
      )}
      {s.waiting > 0 && <div className="muted">{countOf(s.waiting, 'request')} waiting</div>}
      {!finished && (
        <div className="muted" data-testid="run-expected">
          {expected === null ? 'Expected cost unknown' : `Expected cost $${expected.toFixed(4)}`}:{' '}
          {s.expectedBasis}.
        </div>
      )}
      {s.templates && (
        <div className="muted" data-testid="run-templates">
          {sentence(s.templates)}
        </div>
      )}
    </div>
  )
}
