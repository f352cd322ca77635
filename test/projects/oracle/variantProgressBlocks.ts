import type { Tally } from './dashboardBlocksTally'

/**
 * A person's share of an open plan: k × targets spread over the people, never more than every
 * target (one person labels a target once, however few people there are, e.g. on a laptop).
 */
export function openShare(k: number, targets: number, people: number): number {
  return Math.min(targets, Math.ceil((k * targets) / Math.max(1, people)))
}

export interface VariantShare {
  variant: string
  labels: number
  /** Targets of this variant in their assignment (fixed) or their share of k × targets (open). */
  assigned: number | null
}

/**
 * The dashboard's annotator × variant grid: how many labels each person has placed on each
 * variant's work (controls and edited units left out) against what they are meant to do there,
 * so a lead sees who has not started the poor answers, not only who is behind overall.
 */
export function progressByVariant(
  plan: { planned: boolean; policy: 'open' | 'fixed'; k: number; annotators: number },
  variants: readonly { variant: string; targets: number }[],
  tally: Pick<Tally, 'people' | 'assignedByVariant'>,
  people: readonly number[],
): Map<number, VariantShare[]> {
  const out = new Map<number, VariantShare[]>()
  for (const id of people)
    out.set(
      id,
      variants.map(({ variant, targets }) => ({
        variant,
        labels: tally.people.get(id)?.placed.get(variant) ?? 0,
        assigned:
          plan.policy === 'fixed'
            ? (tally.assignedByVariant.get(`${id}|${variant}`) ?? 0)
            : plan.planned
              ? openShare(plan.k, targets, plan.annotators)
              : null,
      })),
    )
  return out
}
