import type { HumanMetrics } from '../../shared/contract/metrics'
import type { Matrix } from './agreementService'
import { type CandidateCells, clustersOfLabels } from './clusterTally'
import { cellOf, countVerdict, FIGURE_SLOTS, FIRST_CELL, figuresOfCounts, JUDGED } from './figures'
import type { Coder, TargetColumns } from './load'
import { NONE } from './stats/binary'
import type { BootstrapOptions } from './stats/bootstrap'
import { goldCodes, majorityAt } from './stats/labelColumns'

/** Per annotator: their figure counts, and each label counted against gold as target index, cell. */
type Counted = [annotatorId: number, counts: Int32Array, judged: ArrayLike<number>][]

/**
 * Humans as judges: every annotator's labels against the gold the *other* annotators make
 * (stored gold still wins), the ceiling a judge's error rate is read against. Their intervals
 * resample whole candidates as the judges' do (figures.ts), so the two are read on one footing.
 */
export function humanFigures(
  t: TargetColumns,
  coder: Coder,
  names: Map<number, string>,
  boot: BootstrapOptions,
  clusters: CandidateCells,
): HumanMetrics[] {
  const h = t.human
  const bins = h.values.map((v) => coder.bin(v, null))
  const counted = t.goldRule ? countsByRule(t, bins) : countsByMajority(t, bins)
  const out: HumanMetrics[] = []
  for (const [a, counts, judged] of counted) {
    const f = figuresOfCounts(
      counts,
      t.variants,
      boot,
      clustersOfLabels(judged, t.variant, clusters, t.variants.length, boot),
    )
    if (f.overall.judged === 0) continue
    out.push({
      ...f.overall,
      annotatorId: a,
      annotator: names.get(a) ?? `#${a}`,
      source: false,
      byVariant: f.byVariant,
    })
  }
  return out.sort((x, y) => x.annotator.localeCompare(y.annotator))
}

/**
 * Per annotator (in `annotatorIds` order), the figure counts of their labels against the others'
 * gold under the default strict majority, in one pass over the labels: an annotator's figures
 * count only targets they labelled, where the others' gold is the stored gold or the majority of
 * the target's other labels. No column per annotator over every target.
 */
function countsByMajority(t: TargetColumns, bins: readonly number[]): Counted {
  const h = t.human
  const { start, annotator, code } = h
  const width = t.variants.length * FIGURE_SLOTS
  const ids = h.annotatorIds
  const counts = new Int32Array(ids.length * width)
  const slot = new Int32Array(ids.reduce((m, a) => Math.max(m, a + 1), 0))
  ids.forEach((a, k) => {
    slot[a] = k
  })
  const binOf = Int8Array.from(bins)
  const tally = new Int32Array(h.values.length)
  // Two slots per label an annotator gave (target, cell), filled up to `used`: typed and sized
  // once, as 1.8M labels pushed one by one into arrays cost the Compare view's cold open dearly.
  const given = new Int32Array(ids.length)
  for (let k = 0; k < annotator.length; k++) given[slot[annotator[k]!]!]!++
  const judged = ids.map((_, k) => new Int32Array(2 * given[k]!))
  const used = new Int32Array(ids.length)
  const n = t.ids.length
  const storedGold = t.stored
  const variant = t.variant
  for (let i = 0; i < n; i++) {
    const s = start[i]!
    const e = start[i + 1]!
    const stored = storedGold[i]!
    for (let k = s; k < e; k++) {
      const a = annotator[k]!
      // A later label of the same annotator on this target is the one that counts.
      let later = false
      for (let l = k + 1; l < e; l++) if (annotator[l] === a) later = true
      if (later) continue
      const j = binOf[code[k]!]!
      if (j < 0) continue
      let g: number
      if (stored >= 0) g = binOf[stored]!
      else if (e - s === 2 && annotator[s] !== annotator[s + 1]) g = binOf[code[k === s ? s + 1 : s]!]!
      else {
        const c = majorityAt(h, i, a, tally)
        g = c < 0 ? NONE : binOf[c]!
      }
      // One increment per label: its cell, or JUDGED where gold has no binary outcome; the
      // cells are added to JUDGED below (countVerdict's counts, without a second increment each).
      counts[slot[a]! * width + variant[i]! * FIGURE_SLOTS + (g < 0 ? JUDGED : cellOf(j, g))]!++
      if (g >= 0) {
        const k = slot[a]!
        judged[k]![used[k]!++] = i
        judged[k]![used[k]!++] = cellOf(j, g) - FIRST_CELL
      }
    }
  }
  for (let o = 0; o < counts.length; o += FIGURE_SLOTS)
    for (let cell = FIRST_CELL; cell < FIGURE_SLOTS; cell++) counts[o + JUDGED]! += counts[o + cell]!
  return ids.map((a, k) => [a, counts.subarray(k * width, (k + 1) * width), judged[k]!.subarray(0, used[k]!)])
}

/** The same counts under the dataset's own gold rule: its gold leaving each annotator out, whole. */
function countsByRule(t: TargetColumns, bins: readonly number[]): Counted {
  const h = t.human
  const n = t.ids.length
  return h.annotatorIds.map((a) => {
    const own = new Int8Array(n).fill(NONE)
    for (let i = 0; i < n; i++)
      for (let k = h.start[i]!; k < h.start[i + 1]!; k++) if (h.annotator[k] === a) own[i] = bins[h.code[k]!]!
    const others = goldCodes(h, t.stored, a, t.goldRule?.(a))
    const counts = new Int32Array(t.variants.length * FIGURE_SLOTS)
    const judged: number[] = []
    for (let i = 0; i < n; i++) {
      const j = own[i]!
      if (j < 0) continue
      const g = others[i]! < 0 ? NONE : bins[others[i]!]!
      countVerdict(counts, 0, t.variant[i]!, j, g)
      if (g >= 0) judged.push(i, cellOf(j, g) - FIRST_CELL)
    }
    return [a, counts, judged]
  })
}

/** Annotators by name in plain code-unit order, as agreementForDataset sorts, so both list pairs the same way. */
export function annotatorOrder(ids: readonly number[], names: Map<number, string>) {
  const name = (a: number) => names.get(a) ?? `#${a}`
  const order = [...ids].sort((x, y) => (name(x) < name(y) ? -1 : name(x) > name(y) ? 1 : 0))
  return { order, name }
}

/** The labels as a ratings matrix (annotators by name, labelled targets only). */
export function ratingsMatrix(t: TargetColumns, names: Map<number, string>): Matrix {
  const h = t.human
  const { order, name } = annotatorOrder(h.annotatorIds, names)
  const col = new Map(order.map((a, i) => [a, i]))
  const rows: (string | null)[][] = []
  const variants: string[] = []
  for (let i = 0; i < t.ids.length; i++) {
    const s = h.start[i]!
    const e = h.start[i + 1]!
    if (s === e) continue
    const row = new Array<string | null>(order.length).fill(null)
    for (let k = s; k < e; k++) row[col.get(h.annotator[k]!)!] = h.values[h.code[k]!]!
    rows.push(row)
    variants.push(t.variants[t.variant[i]!]!)
  }
  return { annotators: order.map(name), variants, rows }
}
