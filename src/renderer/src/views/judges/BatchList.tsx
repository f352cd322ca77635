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
                <code>{b.providerBatchId ?? 'not yet accepted'}</code>
              </td>
              <td>
                {b.state}
                {b.providerStatus ? ` (${b.providerStatus})` : ''}
              </td>
              <td className="num">
                {b.succeeded}/{b.requests} done{b.errored ? `, ${b.errored} errored` : ''}
              </td>
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
