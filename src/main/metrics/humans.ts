import type { HumanMetrics } from '../../shared/contract/metrics'
import type { Matrix } from './agreementService'
import { figuresByVariant } from './figures'
import type { Coder, TargetColumns } from './load'
import { NONE } from './stats/binary'
import type { BootstrapOptions } from './stats/bootstrap'
import { goldCodes, goldCodesWithout } from './stats/labelColumns'

/**
 * Humans as judges: every annotator's labels against the gold the *other* annotators make
 * (stored gold still wins), the ceiling a judge's error rate is read against.
 */
export function humanFigures(
  t: TargetColumns,
  coder: Coder,
  names: Map<number, string>,
  boot: BootstrapOptions,
): HumanMetrics[] {
  const h = t.human
  const bins = h.values.map((v) => coder.bin(v, null))
  const n = t.ids.length
  const out: HumanMetrics[] = []
  // Under the default rule, the gold of everyone else differs from the full gold only where one labelled.
  const all = t.goldRule ? null : goldCodes(h, t.stored, -1)
  for (const a of h.annotatorIds) {
    const own = new Int8Array(n).fill(NONE)
    for (let i = 0; i < n; i++)
      for (let k = h.start[i]!; k < h.start[i + 1]!; k++) if (h.annotator[k] === a) own[i] = bins[h.code[k]!]!
    const others = all ? goldCodesWithout(h, t.stored, all, a) : goldCodes(h, t.stored, a, t.goldRule?.(a))
    const gold = new Int8Array(n)
    for (let i = 0; i < n; i++) gold[i] = others[i]! < 0 ? NONE : bins[others[i]!]!
    const f = figuresByVariant(own, gold, null, t.variant, t.variants, boot)
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
