/*
 * Moving through one item's units across its answer variants, in reading order (variant by
 * variant, each list as shown). Pure, so the rules are tested on their own: the next unlabelled
 * unit of this item comes before any other item's, and a finished variant hands over to the
 * next one with work left.
 */

export interface ItemTarget {
  targetId: number
  candidateId: number
}

/**
 * The next unit of this item I have not labelled: first in the variant on screen (after `focus`,
 * then wrapping to its start), then in the following variants in tab order.
 */
export function nextUnlabelledInItem(
  targets: readonly ItemTarget[],
  labelled: (targetId: number) => boolean,
  focus: number | null,
  candidateId: number | null,
): ItemTarget | null {
  const open = (t: ItemTarget) => t.targetId !== focus && !labelled(t.targetId)
  const list = targets.filter((t) => t.candidateId === candidateId)
  const at = focus === null ? -1 : list.findIndex((t) => t.targetId === focus)
  const here = [...list.slice(at + 1), ...list.slice(0, at + 1)].find(open)
  if (here) return here
  const variants = [...new Set(targets.map((t) => t.candidateId))]
  const from = variants.indexOf(candidateId ?? -1)
  for (let k = 1; k <= variants.length; k++) {
    const c = variants[(from + k + variants.length) % variants.length]
    const next = targets.find((t) => t.candidateId === c && open(t))
    if (next) return next
  }
  return null
}

/**
 * After a label finished variant `candidateId`: the next variant (in tab order, wrapping) with
 * units still to label, and how many. Null when the variant still has work or none has.
 */
export function nextVariantWithWork(
  candidates: readonly { id: number; variant: string }[],
  targets: readonly ItemTarget[],
  labelled: (targetId: number) => boolean,
  candidateId: number,
): { candidateId: number; variant: string; left: number; first: number } | null {
  const open = (id: number) => targets.filter((t) => t.candidateId === id && !labelled(t.targetId))
  if (open(candidateId).length > 0) return null
  const at = candidates.findIndex((c) => c.id === candidateId)
  for (let k = 1; k < candidates.length; k++) {
    const c = candidates[(at + k) % candidates.length]!
    const left = open(c.id)
    if (left.length > 0)
      return { candidateId: c.id, variant: c.variant, left: left.length, first: left[0]!.targetId }
  }
  return null
}
