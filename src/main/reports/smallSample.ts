import type { CohenPair } from '../../shared/contract/agreement'
import type { DatasetMetrics } from '../../shared/contract/metrics'
import {
  agreementText,
  CLUSTER_NORMAL_ABOVE,
  prevalenceNote,
  type RateCiMethod,
  withCiMark,
} from '../../shared/smallSample'
import { NOT_DEFINED, num, pct, pctCi } from './format'

/**
 * A rate with its interval, saying where the interval is Wilson's or the cluster-robust normal
 * one rather than the bootstrap's.
 */
export function rateCi(x: number | null, iv: [number, number] | null, method: RateCiMethod | null): string {
  return withCiMark(pctCi(x, iv), iv, method)
}

/** κ (or α, AC1, PABAK) with the small-sample warning beside it. */
export function kappaCell(kappa: number | null, n: number, min?: number): string {
  return agreementText(num(kappa), n, min)
}

export const INTERVALS_NOTE = `Intervals are seeded bootstrap 95% intervals; where a sample is too small or all one outcome (the bootstrap would collapse to a point), Wilson score intervals, marked (Wilson). Where a candidate holds several targets (facts of one call, sentences, triplets), the bootstrap resamples candidates, and the wider of it and Wilson’s over the targets is given; over more than ${CLUSTER_NORMAL_ABOVE.toLocaleString('en-US')} candidates the cluster-robust normal interval stands in for that bootstrap (they agree there), marked (cluster-robust).`

type Scope = DatasetMetrics['agreement']['byVariant'][string]

/**
 * One row of an agreement table. Every coefficient of a scope carries the mark, not κ alone: α,
 * AC1 and PABAK over three targets are no steadier, and an unmarked 0.600 beside a marked 0.550
 * reads as the safe one.
 */
function scopeRow(scope: string, s: Scope, min: number): string[] {
  return [
    scope,
    String(s.n),
    s.percent === null ? NOT_DEFINED : agreementText(`${pctCi(s.percent, s.percentCi)} (n ${s.n})`, s.n, min),
    kappaCell(s.fleissKappa, s.n, min),
    kappaCell(s.krippendorffAlpha, s.n, min),
    kappaCell(s.ac1, s.n, min),
    kappaCell(s.pabak, s.n, min),
    s.dominantShare === null ? NOT_DEFINED : `${s.dominantLabel} ${pct(s.dominantShare)}`,
  ]
}

const SCOPE_HEAD = [
  'Scope',
  'Targets',
  'Percent',
  "Fleiss' κ",
  "Krippendorff's α",
  'AC1',
  'PABAK',
  'Most common label',
]

/** The inter-annotator agreement rows among people, with AC1, PABAK and the small-sample warnings. */
export function agreementTable(m: DatasetMetrics) {
  const a = m.agreement
  const min = a.minSharedTargets
  const prevalence = prevalenceNote(a.dominantLabel, a.dominantShare)
  const withRelease = a.sourcePairs.length > 0 || a.amongSources !== null
  return {
    title: 'Inter-annotator agreement',
    note: [
      `Percent agreement's interval is Wilson's over the shared targets. Percent agreement, κ, α, AC1 and PABAK over fewer than ${min} shared targets are marked too few to read.`,
      prevalence ?? '',
      withRelease
        ? a.n === 0
          ? "No target has labels from two people, so there is no agreement among people yet. The dataset's own reference labels (the release's) are read apart, below."
          : "Among people only: the dataset's own reference labels (the release's) are read apart, below."
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    head: SCOPE_HEAD,
    rows: [scopeRow('all', a, min), ...Object.entries(a.byVariant).map(([v, s]) => scopeRow(v, s, min))],
  }
}

/**
 * The release's annotators among themselves (the dataset's sources): the inter-annotator
 * agreement a benchmark's paper reports, with the people's coefficients and marks, never mixed in.
 */
export function releaseAgreementTable(m: DatasetMetrics) {
  const among = m.agreement.amongSources
  if (among === null) return null
  const min = m.agreement.minSharedTargets
  const prevalence = prevalenceNote(among.dominantLabel, among.dominantShare)
  return {
    title: "Agreement among the release's annotators (not counted in the figures above)",
    note: [
      `The dataset's own reference labels (${among.names.join(', ')}) compared with each other, as the release reports its own agreement; no person's label is in it. Marks as above.`,
      prevalence ?? '',
    ]
      .filter(Boolean)
      .join(' '),
    head: SCOPE_HEAD,
    rows: [
      scopeRow('all', among, min),
      ...Object.entries(among.byVariant).map(([v, s]) => scopeRow(v, s, min)),
    ],
  }
}

const PAIR_TABLES = {
  people: { title: "Cohen's κ per annotator pair", head: ['Pair'] },
  'person-source': {
    title: "Each person against the release's labels (not counted in the figures above)",
    head: ['Person', "Release's labels"],
  },
  sources: {
    title: "The release's annotators against each other (not counted in the figures above)",
    head: ["Release's annotator", "Release's annotator"],
  },
} as const

/** Cohen's κ, AC1 and PABAK per pair of one kind; null where there is no such pair. */
export function cohenTable(m: DatasetMetrics, kind: CohenPair['kind'] = 'people') {
  const min = m.agreement.minSharedTargets
  const pairs = (kind === 'people' ? m.agreement.cohenPairs : m.agreement.sourcePairs).filter(
    (p) => p.kind === kind,
  )
  if (pairs.length === 0) return null
  const names = (p: CohenPair) => (kind === 'people' ? [`${p.a} – ${p.b}`] : [p.a, p.b])
  return {
    title: PAIR_TABLES[kind].title,
    head: [...PAIR_TABLES[kind].head, 'Overlap', 'κ', 'AC1', 'PABAK'],
    rows: pairs.map((p) => [
      ...names(p),
      String(p.n),
      kappaCell(p.kappa, p.n, min),
      kappaCell(p.ac1, p.n, min),
      kappaCell(p.pabak, p.n, min),
    ]),
  }
}
