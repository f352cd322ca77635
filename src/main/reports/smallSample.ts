import type { DatasetMetrics } from '../../shared/contract/metrics'
import { type CiMethod, kappaNote, prevalenceNote, tooFewShared } from '../../shared/smallSample'
import { NOT_DEFINED, num, pct, pctCi } from './format'

/** A rate with its interval, saying where the interval is Wilson's rather than the bootstrap's. */
export function rateCi(x: number | null, iv: [number, number] | null, method: CiMethod | null): string {
  const text = pctCi(x, iv)
  return method === 'wilson' && iv !== null ? `${text} (Wilson)` : text
}

/** κ with the small-sample warning beside it. */
export function kappaCell(kappa: number | null, n: number): string {
  const note = kappaNote(n)
  return note === '' ? num(kappa) : `${num(kappa)} (${note})`
}

export const INTERVALS_NOTE =
  'Intervals are seeded bootstrap 95% intervals; where a sample is too small or all one outcome (the bootstrap would collapse to a point), Wilson score intervals, marked (Wilson).'

/** The inter-annotator agreement rows, with AC1, PABAK and the small-sample warnings. */
export function agreementTable(m: DatasetMetrics) {
  const a = m.agreement
  const min = a.minSharedTargets
  const row = (scope: string, s: typeof a | (typeof a.byVariant)[string]) => [
    scope,
    String(s.n),
    s.percent === null ? NOT_DEFINED : `${pct(s.percent)} (n ${s.n})`,
    tooFewShared(s.n, min) ? `${num(s.fleissKappa)} (too few shared targets)` : num(s.fleissKappa),
    num(s.krippendorffAlpha),
    num(s.ac1),
    num(s.pabak),
    s.dominantShare === null ? NOT_DEFINED : `${s.dominantLabel} ${pct(s.dominantShare)}`,
  ]
  const prevalence = prevalenceNote(a.dominantLabel, a.dominantShare)
  return {
    title: 'Inter-annotator agreement',
    note: [`κ and α over fewer than ${min} shared targets are marked too few to read.`, prevalence ?? '']
      .filter(Boolean)
      .join(' '),
    head: [
      'Scope',
      'Targets',
      'Percent',
      "Fleiss' κ",
      "Krippendorff's α",
      'AC1',
      'PABAK',
      'Most common label',
    ],
    rows: [row('all', a), ...Object.entries(a.byVariant).map(([v, s]) => row(v, s))],
  }
}

export function cohenTable(m: DatasetMetrics) {
  return {
    title: "Cohen's κ per annotator pair",
    head: ['Pair', 'Overlap', 'κ', 'AC1', 'PABAK'],
    rows: m.agreement.cohenPairs.map((p) => [
      `${p.a} – ${p.b}`,
      String(p.n),
      kappaCell(p.kappa, p.n),
      num(p.ac1),
      num(p.pabak),
    ]),
  }
}
