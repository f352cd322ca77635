import type { Dashboard } from '../../../../shared/contract/projects'

/**
 * Progress per variant. At the lead's: each variant's targets and those at k. On a laptop only
 * one person labels, so no target reaches k there and the dataset's counts are not her work: the
 * table shows her share per variant and how much of it she has labelled, as the progress line
 * above it does.
 */
export function VariantProgress({ d }: { d: Dashboard }) {
  const laptop = d.laptop
  const mine = laptop ? d.annotators.find((a) => a.name === laptop.annotator) : undefined
  const rows = mine
    ? mine.byVariant.map((v) => ({
        variant: v.variant,
        // An open plan hands her every target of the variant.
        targets: v.assigned ?? d.byVariant.find((b) => b.variant === v.variant)?.targets ?? 0,
        done: v.labels,
      }))
    : d.byVariant.map((v) => ({ variant: v.variant, targets: v.targets, done: v.complete }))
  return (
    <table className="data-table" aria-label="Progress per variant" data-testid="project-variants">
      <thead>
        <tr>
          <th>Variant</th>
          <th>{laptop ? `Targets of ${laptop.annotator}'s share` : 'Targets'}</th>
          <th>{laptop ? 'Labelled' : 'At k'}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((v) => (
          <tr key={v.variant} data-variant={v.variant}>
            <td>{v.variant}</td>
            <td>{v.targets}</td>
            <td>{v.done}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
