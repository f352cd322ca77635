import type { HumanMetrics } from '../../shared/contract/metrics'
import type { Matrix } from './agreementService'
import { type CandidateCells, type CellCounts, clustersInCells, clustersOfLabels } from './clusterTally'
import { cellOf, countVerdict, FIGURE_SLOTS, FIRST_CELL, figuresOfCounts, JUDGED } from './figures'
import type { Coder, TargetColumns } from './load'
import { NONE } from './stats/binary'
import type { BootstrapOptions } from './stats/bootstrap'
import type { VariantClusters } from './stats/candidateIntervals'
import { goldCodes, majorityAt } from './stats/labelColumns'

/** Per annotator: their figure counts, and their labels counted against gold grouped by candidate. */
type Counted = [annotatorId: number, counts: Int32Array, clusters: () => VariantClusters][]

/** Bytes a label takes as a (target, cell) pair: what each person's cells are weighed against. */
const PAIR_BYTES = 8

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
  /** Most bytes each person's own cells may take (default: no more than the pairs they replace). */
  cellBytes?: number,
): HumanMetrics[] {
  const h = t.human
  const bins = h.values.map((v) => coder.bin(v, null))
  const counted = t.goldRule
    ? countsByRule(t, bins, clusters, boot)
    : countsByMajority(t, bins, clusters, boot, cellBytes)
  const out: HumanMetrics[] = []
  for (const [a, counts, clustersOf] of counted) {
    const f = figuresOfCounts(counts, t.variants, boot, clustersOf())
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
 *
 * Each counted label goes straight into its person's four cells of its candidate (narrow counts,
 * a block of them per person: `personCells`), where those take no more memory than a (target,
 * cell) pair per label would; elsewhere (many people, each labelling few candidates) into the
 * pairs, which a second pass groups by candidate. At a million targets the pairs were 14 MB of fresh memory and
 * that pass a tenth of a second of the Compare view's cold open.
 */
function countsByMajority(
  t: TargetColumns,
  bins: readonly number[],
  clusters: CandidateCells,
  boot: BootstrapOptions,
  cellBytes?: number,
): Counted {
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
  const { of, base, count } = clusters
  const variants = t.variants.length
  const own = personCells(
    of,
    base,
    t.variant,
    variants,
    count,
    ids.length,
    cellBytes ?? PAIR_BYTES * annotator.length,
  )
  const cells = own?.cells
  const touched = own?.touched ?? []
  const filled = new Int32Array(ids.length * variants)
  // Otherwise two slots per label an annotator gave (target, cell), filled up to `used`: typed and
  // sized once, as 1.8M labels pushed one by one into arrays cost the Compare view's cold open dearly.
  const given = new Int32Array(ids.length)
  if (!cells) for (let k = 0; k < annotator.length; k++) given[slot[annotator[k]!]!]!++
  const judged = ids.map((_, k) => new Int32Array(2 * given[k]!))
  const used = new Int32Array(ids.length)
  const n = t.ids.length
  const storedGold = t.stored
  const variant = t.variant
  for (let i = 0; i < n; i++) {
    const s = start[i]!
    const e = start[i + 1]!
    const stored = storedGold[i]!
    if (cells && e - s === 2 && stored < 0 && annotator[s] !== annotator[s + 1]) {
      // Two people's labels, each the other's gold (the usual case: 900k of a million targets),
      // counted as the loop below counts them, without its scans for a later label of the same
      // person and for a majority.
      const v = variant[i]!
      const c = of[i]! - base
      for (let q = 0; q < 2; q++) {
        const j = binOf[code[s + q]!]!
        if (j < 0) continue
        const g = binOf[code[s + 1 - q]!]!
        const p = slot[annotator[s + q]!]!
        if (g < 0) {
          counts[p * width + v * FIGURE_SLOTS + JUDGED]!++
          continue
        }
        const cell = cellOf(j, g)
        counts[p * width + v * FIGURE_SLOTS + cell]!++
        const o = (p * count + c) * 4
        if (cells[o]! + cells[o + 1]! + cells[o + 2]! + cells[o + 3]! === 0)
          touched[p]![v]![filled[p * variants + v]!++] = c
        cells[o + cell - FIRST_CELL]!++
      }
      continue
    }
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
      if (g < 0) continue
      const p = slot[a]!
      if (cells) {
        const c = of[i]! - base
        const o = (p * count + c) * 4
        if (cells[o]! + cells[o + 1]! + cells[o + 2]! + cells[o + 3]! === 0) {
          const v = variant[i]!
          touched[p]![v]![filled[p * variants + v]!++] = c
        }
        cells[o + cellOf(j, g) - FIRST_CELL]!++
      } else {
        judged[p]![used[p]!++] = i
        judged[p]![used[p]!++] = cellOf(j, g) - FIRST_CELL
      }
    }
  }
  for (let o = 0; o < counts.length; o += FIGURE_SLOTS)
    for (let cell = FIRST_CELL; cell < FIGURE_SLOTS; cell++) counts[o + JUDGED]! += counts[o + cell]!
  return ids.map((a, k) => [
    a,
    counts.subarray(k * width, (k + 1) * width),
    cells
      ? () =>
          clustersInCells(
            cells.subarray(k * count * 4, (k + 1) * count * 4),
            touched[k]!.map((list, v) => list.subarray(0, filled[k * variants + v]!)),
            boot,
            false,
          )
      : () => clustersOfLabels(judged[k]!.subarray(0, used[k]!), variant, clusters, variants, boot),
  ])
}

/**
 * Four cells per candidate for each of `people`, as narrow as the largest candidate allows (a
 * person's cell counts at most one label per target of it), and per person and variant room for
 * the candidates in the order their first counted label came (typed: pushing half a million of
 * them into arrays touched several megabytes of fresh memory as the arrays grew); or null when
 * these would take more than `budget` bytes.
 */
function personCells(
  of: Int32Array,
  base: number,
  variant: Uint16Array,
  variants: number,
  count: number,
  people: number,
  budget: number,
): { cells: CellCounts; touched: Int32Array[][] } | null {
  // The least they could take (a byte a cell, no lists): past the budget, nothing to count first.
  if (people * count * 4 > budget) return null
  const size = new Int32Array(count)
  const perVariant = new Int32Array(variants)
  let largest = 0
  for (let i = 0; i < of.length; i++) {
    const s = ++size[of[i]! - base]!
    if (s > largest) largest = s
    perVariant[variant[i]!]!++
  }
  const width = largest <= 0xff ? 1 : largest <= 0xffff ? 2 : 4
  // A variant's list holds at most its targets' candidates, and never more than every candidate.
  const room = Array.from(perVariant, (m) => Math.min(m, count))
  const listBytes = 4 * room.reduce((x, y) => x + y, 0)
  if (people * (count * 4 * width + listBytes) > budget) return null
  const length = people * count * 4
  const cells =
    width === 1 ? new Uint8Array(length) : width === 2 ? new Uint16Array(length) : new Int32Array(length)
  const touched = Array.from({ length: people }, () => room.map((m) => new Int32Array(m)))
  return { cells, touched }
}

/** The same counts under the dataset's own gold rule: its gold leaving each annotator out, whole. */
function countsByRule(
  t: TargetColumns,
  bins: readonly number[],
  clusters: CandidateCells,
  boot: BootstrapOptions,
): Counted {
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
    return [a, counts, () => clustersOfLabels(judged, t.variant, clusters, t.variants.length, boot)]
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
