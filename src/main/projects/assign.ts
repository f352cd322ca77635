import { countOf } from '../../shared/plural'
import { mulberry32 } from '../metrics/stats/bootstrap'

/**
 * Fixed assignment: every item goes to exactly k of the named annotators. Items are shuffled
 * from the seed, then dealt round-robin over a seeded order of the annotators, so each person
 * gets an even share and which items they share with whom is random yet reproducible: the same
 * seed, items and names always give the same split. Pure: no I/O.
 */
export function assignItems(
  itemIds: readonly number[],
  annotatorIds: readonly number[],
  k: number,
  seed: number,
): Map<number, number[]> {
  if (k > annotatorIds.length) throw new Error(overlapProblem(k, annotatorIds.length))
  const rand = mulberry32(seed)
  const items = shuffle(
    [...itemIds].sort((a, b) => a - b),
    rand,
  )
  const people = shuffle(
    [...annotatorIds].sort((a, b) => a - b),
    rand,
  )
  const out = new Map<number, number[]>(people.map((a) => [a, []]))
  const m = people.length
  items.forEach((item, i) => {
    // Consecutive items start k places apart, so every annotator appears once per m/k items.
    for (let j = 0; j < k; j++) out.get(people[(i * k + j) % m]!)!.push(item)
  })
  for (const list of out.values()) list.sort((a, b) => a - b)
  return out
}

function shuffle<T>(list: T[], rand: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[list[i], list[j]] = [list[j]!, list[i]!]
  }
  return list
}

/** The sentence shown when k cannot be met by the people available. */
export function overlapProblem(k: number, annotators: number): string {
  const people = (n: number) => countOf(n, 'annotator')
  return `Overlap k = ${k} needs at least ${people(k)}, but the plan has ${annotators}: add annotators or lower k`
}

/**
 * Whether the queue slips a control in before this label. Drawn from the plan's seed, the
 * annotator and how many labels they have placed, so the mix is steady, differs per person and
 * does not form a pattern anyone could learn.
 */
export function controlTurn(seed: number, annotatorId: number, labelsSoFar: number, rate: number): boolean {
  if (rate <= 0) return false
  if (rate >= 1) return true
  const rand = mulberry32(
    (seed ^ Math.imul(annotatorId + 1, 0x9e3779b1) ^ Math.imul(labelsSoFar + 1, 0x85ebca6b)) >>> 0,
  )
  return rand() < rate
}
