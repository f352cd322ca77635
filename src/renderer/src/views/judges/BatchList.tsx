import { batchCountWords, batchIdWords, batchStateWords } from '../../../../shared/batchWords'
import { api } from '../../api'
import { useQuery } from '../../hooks'

/** The provider batches of a batch-mode run: ids, states and the provider's request counts. */
export function BatchList({ runId, version }: { runId: number; version: string }) {
  const status = useQuery(() => api('judges.batches', { runId }), [runId, version])
  const s = status.data
  if (!s || s.batches.length === 0) return null
  return (
    <div className="small" data-testid="run-batches">
      <table className="jd-batches">
        <tbody>
          {s.batches.map((b) => (
            <tr key={b.id}>
              <td>
                <code>{batchIdWords(b)}</code>
              </td>
              <td data-testid="batch-state">{batchStateWords(b)}</td>
              <td className="num">{batchCountWords(b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {s.waiting > 0 && (
        <div className="muted">
          {s.waiting} request(s) waiting; expected cost ${s.expectedCost.toFixed(4)} at batch price
        </div>
      )}
    </div>
  )
}
