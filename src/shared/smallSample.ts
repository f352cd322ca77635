/**
 * Small-sample rules shared by the views, the reports and `metrics --json`, so every place that
 * prints a figure applies the same thresholds and the same words.
 */

import { formatCount } from './plural'

/** κ and α over fewer shared targets than this get no strength word: the reading would be noise. */
export const MIN_SHARED_TARGETS = 20

/** Below this many targets, or with every outcome alike, a percentile bootstrap degenerates. */
export const BOOTSTRAP_MIN_N = 20

/** Where one label takes at least this share, κ and α suffer the prevalence paradox. */
export const DOMINANT_SHARE = 0.8

export type CiMethod = 'bootstrap' | 'wilson'

/**
 * Above this many candidates, the error rate's and F1's interval over candidates (where a
 * candidate holds several targets) is the cluster-robust normal interval of a ratio of sums
 * rather than the cluster bootstrap: from a thousand candidates on the two agree within about
 * 0.01 (test/metrics/clusterNormal.test.ts), and the closed form costs one pass where the
 * bootstrap's draws cost most of a cold Compare view at a million targets. Below it, where the
 * sample is small enough for the shape of the distribution to matter, the bootstrap stays.
 */
export const CLUSTER_NORMAL_ABOVE = 1000

/** How an error rate's or F1's interval was made: CiMethod, or the cluster-robust normal one. */
export type RateCiMethod = CiMethod | 'cluster-robust'

export function tooFewShared(n: number, min = MIN_SHARED_TARGETS): boolean {
  return n < min
}

/**
 * An error rate, accuracy or F1 over fewer targets than this is marked too few to read, as κ is
 * over fewer shared targets: 0.0% over 16 targets is a Wilson interval reaching 19%, not a
 * measured perfect score, and it is not ranked above rates that rest on enough targets.
 */
export const MIN_RATE_TARGETS = MIN_SHARED_TARGETS

/** The mark beside a judge's or a person's rates over `n` targets; empty when there are enough. */
export function rateNote(n: number): string {
  return n < MIN_RATE_TARGETS ? `too few targets (n=${n})` : ''
}

export function tooFewWords(n: number): string {
  return `too few shared targets (n=${n})`
}

/**
 * Below this many pairs a correlation is not given at all: over two pairs Pearson, Spearman and
 * Kendall's τ-b are ±1 by construction, over three they rest on one degree of freedom, and
 * Fisher's z has no standard error (1/√(n − 3)) to make an interval with.
 */
export const MIN_CORRELATION_PAIRS = 4

/**
 * Below this many pairs a correlation is printed with its interval but marked too few to read,
 * as κ and α are under MIN_SHARED_TARGETS: one pair more or less can swing it by half its range.
 */
export const READ_CORRELATION_PAIRS = 10

/** How a correlation's interval was made: percentile bootstrap, or Fisher's z below BOOTSTRAP_MIN_N. */
export type CorrelationCiMethod = 'bootstrap' | 'fisher'

export function tooFewPairs(n: number): boolean {
  return n < READ_CORRELATION_PAIRS
}

/**
 * The mark beside a correlation over `n` pairs of `what` (items, targets, candidates); empty when
 * there are enough to read it.
 */
export function correlationNote(n: number, what: string): string {
  return tooFewPairs(n) ? `too few ${what} (n=${n})` : ''
}

/**
 * A correlation at exactly ±1 (within floating-point crumbs: a Pearson sum can land on
 * 0.9999999999999998). No interval is given there: Fisher's z is infinite at ±1, and pulling r
 * off the bound by some ε to make one yields an interval whose width is set by ε, not by the data
 * (even the nearest double below 1 gives [1.000, 1.000] over six items); the exact normal-theory
 * interval at a sample r of ±1 is the point itself, because a continuous bivariate normal sample
 * reaches ±1 with probability zero unless ρ is ±1 — here it is reached through tied, discrete
 * item scores, which says the model does not hold, not that ρ is 1. A percentile bootstrap
 * collapses there too (every resample is ±1). So the figure says its interval is undefined.
 */
export function atBound(r: number | null): boolean {
  return r !== null && Number.isFinite(r) && Math.abs(r) >= 1 - 1e-12
}

/** The mark beside a correlation at ±1 over `n` `what`, which has no interval (see atBound). */
export function boundNote(n: number, what: string): string {
  return `interval undefined at ±1 over ${n} ${what}`
}

/**
 * A figure's text with its small-sample mark after it: one separator everywhere (reports, CLI,
 * Compare, Agreement), so the mark reads the same wherever the figure does.
 */
export function withNote(text: string, note: string): string {
  return note === '' ? text : `${text} · ${note}`
}

/** The text put where a figure is withheld because it rests on too few observations. */
export const WITHHELD = '—'

/**
 * A rough reading of κ or α in words, with the customary cut points (0, .2, .4, .6, .8); over
 * too few shared targets it says so instead. A reading aid, not a verdict on the data.
 */
export function agreementReading(value: number | null, n: number, min = MIN_SHARED_TARGETS): string {
  // Marked even at n = 0, as the report's cells and the AC1 and PABAK beside it are.
  if (value === null || !Number.isFinite(value)) return n < min ? tooFewWords(n) : ''
  if (n < min) return tooFewWords(n)
  // Banded on the two decimals people see beside the word: 0.40000000000000013 reads "0.40", so
  // "fair", and an α of 0.6015 and a Fleiss' κ of 0.595 both shown as 0.60 get the same word.
  const shown = Number(value.toFixed(2))
  if (shown < 0) return 'worse than chance'
  if (shown <= 0.2) return 'slight'
  if (shown <= 0.4) return 'fair'
  if (shown <= 0.6) return 'moderate'
  if (shown <= 0.8) return 'substantial'
  return 'almost perfect'
}

/** The one-line explanation shown where a dominant class makes κ and α read low. */
export function prevalenceNote(label: string | null, share: number | null): string | null {
  if (share === null || share < DOMINANT_SHARE) return null
  const pct = `${(share * 100).toFixed(0)}%`
  return `${pct} of labels are “${label ?? '?'}”: with one class this common, chance agreement is high, so κ and α read low even when annotators agree (the prevalence paradox); AC1 and PABAK do not discount agreement that way.`
}

/**
 * The word printed after an interval that is not the seeded bootstrap's (reports, charts'
 * tooltips), so a reader knows which interval they see; the hover text (ciTitle) says more.
 */
export function ciMark(method: RateCiMethod | null): string {
  if (method === 'wilson') return 'Wilson'
  if (method === 'cluster-robust') return 'cluster-robust'
  return ''
}

/** A rate's text with its interval, then the interval's mark where it has one: "13.8% [9.1–20.3%] (Wilson)". */
export function withCiMark(
  text: string,
  iv: readonly [number, number] | null,
  method: RateCiMethod | null,
): string {
  const mark = ciMark(method)
  return mark !== '' && iv !== null ? `${text} (${mark})` : text
}

/** Hover text saying how an interval was made, and over how many targets. */
export function ciTitle(method: RateCiMethod | null, n: number): string {
  if (method === 'wilson')
    return `95% Wilson score interval over n ${n} (a bootstrap here would be too few, one outcome only, narrower, or reach an end the count rules out)`
  if (method === 'bootstrap') return `95% seeded bootstrap interval over n ${n}`
  if (method === 'cluster-robust')
    return `95% cluster-robust normal interval over n ${n} (candidates as the independent draws: over ${formatCount(CLUSTER_NORMAL_ABOVE)} of them it matches their bootstrap)`
  return `n ${n}`
}

/**
 * The mark printed beside κ, α, AC1 or PABAK where it rests on too few shared targets to read;
 * empty otherwise. Every agreement coefficient takes the same mark: AC1 and PABAK are no steadier
 * than κ over three targets, they only fail differently.
 */
export function kappaNote(n: number, min = MIN_SHARED_TARGETS): string {
  return n < min ? tooFewWords(n) : ''
}

/** An agreement coefficient as text with its mark, e.g. `0.600 · too few shared targets (n=3)`. */
export function agreementText(text: string, n: number, min = MIN_SHARED_TARGETS): string {
  return withNote(text, kappaNote(n, min))
}
