import { diffWords } from 'diff'
import { api } from '../../api'
import { useQuery } from '../../hooks'

/** RAI rewrites beside the text they rewrote, as a word diff (removed struck out, added marked). */
export function RewritesPanel({ datasetId }: { datasetId: number }) {
  const rewrites = useQuery(() => api('judges.rewrites', { datasetId }), [datasetId])
  if (!rewrites.data || rewrites.data.length === 0) return null
  return (
    <section className="card jd-card" aria-label="RAI rewrites">
      <h3>RAI rewrites</h3>
      {rewrites.data.map((r) => (
        <div key={r.rewrite.candidateId} className="jd-rewrite" data-testid="rai-rewrite">
          <div className="muted small">
            item {r.extId}: {r.original.variant} → {r.rewrite.variant}
          </div>
          <p className="jd-diff">
            {diffWords(r.original.text, r.rewrite.text).map((part, i) =>
              part.added ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: diff parts have no identity beyond their place
                <ins key={i}>{part.value}</ins>
              ) : part.removed ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: diff parts have no identity beyond their place
                <del key={i}>{part.value}</del>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: diff parts have no identity beyond their place
                <span key={i}>{part.value}</span>
              ),
            )}
          </p>
        </div>
      ))}
    </section>
  )
}
