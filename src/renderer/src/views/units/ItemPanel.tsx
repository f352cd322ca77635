import type { UnitsPage } from '../../../../shared/contract/units'
import { hasReference, NO_REFERENCE, NO_REFERENCE_HINT } from '../../../../shared/noReference'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'

/**
 * The texts the units come from: question, reference and each answer, with the deterministic
 * sentence split offered for answers that have no sentence units yet.
 */
export function ItemPanel({ page, run }: { page: UnitsPage; run(work: () => Promise<string>): void }) {
  const item = page.item
  if (!item) return null
  const withSentences = new Set(page.units.filter((u) => u.kind === 'sentence').map((u) => u.candidateId))
  const split = async (candidateId: number) => {
    const r = await api('units.splitSentences', { candidateId })
    return `Made ${countOf(r.units, 'sentence unit')}.`
  }
  return (
    <aside className="units-item">
      {item.question && (
        <section>
          <h3>Question</h3>
          <p className="units-source">{item.question}</p>
        </section>
      )}
      <details open>
        <summary>
          <h3>Reference</h3>
        </summary>
        <p className="units-source">
          {hasReference(item.reference) ? (
            item.reference
          ) : (
            <span title={NO_REFERENCE_HINT}>{NO_REFERENCE}</span>
          )}
        </p>
      </details>
      {page.candidates.map((c) => (
        <details key={c.id} open={page.candidates.length <= 3}>
          <summary>
            <h3>{c.variant}</h3>
          </summary>
          <p className="units-source">{c.text}</p>
          {!withSentences.has(c.id) && (
            <button type="button" onClick={() => run(() => split(c.id))}>
              Split “{c.variant}” into sentences
            </button>
          )}
        </details>
      ))}
    </aside>
  )
}
