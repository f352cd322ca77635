import type { DatasetMetrics } from '../../shared/contract/metrics'
import { agreementText, type CiMethod, prevalenceNote } from '../../shared/smallSample'
import { NOT_DEFINED, num, pct, pctCi } from './format'

/** A rate with its interval, saying where the interval is Wilson's rather than the bootstrap's. */
export function rateCi(x: number | null, iv: [number, number] | null, method: CiMethod | null): string {
  const text = pctCi(x, iv)
  return method === 'wilson' && iv !== null ? `${text} (Wilson)` : text
}

/** κ (or α, AC1, PABAK) with the small-sample warning beside it. */
export function kappaCell(kappa: number | null, n: number, min?: number): string {
  return agreementText(num(kappa), n, min)
}

export const INTERVALS_NOTE =
  'Intervals are seeded bootstrap 95% intervals; where a sample is too small or all one outcome (the bootstrap would collapse to a point), Wilson score intervals, marked (Wilson). Where a candidate holds several targets (facts of one call, sentences, triplets), the bootstrap resamples candidates, and the wider of it and Wilson’s over the targets is given.'

/** The inter-annotator agreement rows, with AC1, PABAK and the small-sample warnings. */
export function agreementTable(m: DatasetMetrics) {
  const a = m.agreement
  const min = a.minSharedTargets
  // Every coefficient of a scope carries the mark, not κ alone: α, AC1 and PABAK over three
  // targets are no steadier, and an unmarked 0.600 beside a marked 0.550 reads as the safe one.
  const row = (scope: string, s: typeof a | (typeof a.byVariant)[string]) => [
    scope,
    String(s.n),
    s.percent === null ? NOT_DEFINED : agreementText(`${pctCi(s.percent, s.percentCi)} (n ${s.n})`, s.n, min),
    kappaCell(s.fleissKappa, s.n, min),
    kappaCell(s.krippendorffAlpha, s.n, min),
    kappaCell(s.ac1, s.n, min),
    kappaCell(s.pabak, s.n, min),
    s.dominantShare === null ? NOT_DEFINED : `${s.dominantLabel} ${pct(s.dominantShare)}`,
  ]
  const prevalence = prevalenceNote(a.dominantLabel, a.dominantShare)
  return {
    title: 'Inter-annotator agreement',
    note: [
      `Percent agreement's interval is Wilson's over the shared targets. Percent agreement, κ, α, AC1 and PABAK over fewer than ${min} shared targets are marked too few to read.`,
      prevalence ?? '',
      a.sourcePairs.length > 0
        ? "Among people only: the dataset's own reference labels are compared with each person apart, below."
        : '',
    ]
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

export function cohenTable(m: DatasetMetrics, pairs: 'people' | 'sources' = 'people') {
  const min = m.agreement.minSharedTargets
  return {
    title:
      pairs === 'people'
        ? "Cohen's κ per annotator pair"
        : "Agreement with the release's labels (apart from the figures above)",
    head: ['Pair', 'Overlap', 'κ', 'AC1', 'PABAK'],
    rows: (pairs === 'people' ? m.agreement.cohenPairs : m.agreement.sourcePairs).map((p) => [
      `${p.a} – ${p.b}`,
      String(p.n),
      kappaCell(p.kappa, p.n, min),
      kappaCell(p.ac1, p.n, min),
      kappaCell(p.pabak, p.n, min),
    ]),
  }
}
