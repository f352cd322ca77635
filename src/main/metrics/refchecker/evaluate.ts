import type { CiMethod } from '../../../shared/smallSample'
import { mulberry32 } from '../stats/bootstrap'
import { REFCHECKER_CLASSES, type RefClass } from '../stats/methods'
import { type ChosenCi, widerCi, wilsonCi } from '../stats/smallSample'

/**
 * RefChecker's evaluation of one source of triplet labels (the humans, or one checker run), as
 * its benchmark script computes it and a little more:
 * - a response with no triplets is an abstention: counted, reported, and left out of the rest;
 * - macro distribution: the entailment / neutral / contradiction shares of each response's
 *   triplets, averaged over responses (every response weighs the same);
 * - micro distribution: the shares over all triplets pooled;
 * - response level: hallucinated when at least one triplet is a contradiction, and the strict
 *   label (contradiction if any, else neutral if any, else entailment);
 * - 95% intervals by a seeded bootstrap over responses, or Wilson's over the counted triplets
 *   (or responses) where that is the wider or the bootstrap reaches an end the count rules out
 *   (stats/smallSample.ts `widerCi`).
 * Pure: the caller says which labels each response's triplets carry.
 */

export type Dist = Record<RefClass, number>
export type DistCi = Record<RefClass, [number, number] | null>
export type DistCiMethod = Record<RefClass, CiMethod | null>

export interface Response {
  /** A stable key (the candidate id) and the variant the figures are broken down by. */
  key: number
  variant: string
  /** Triplets the response has, labelled or not. Zero: the response abstained. */
  triplets: number
  /** The labels given (one per labelled triplet; other verdicts are left out by the caller). */
  labels: RefClass[]
}

export interface RefFigures {
  responses: number
  abstentions: number
  abstentionRate: number | null
  abstentionCi: [number, number] | null
  abstentionCiMethod: CiMethod | null
  /** Non-abstaining responses with at least one labelled triplet: the denominators below. */
  judged: number
  triplets: number
  macro: Dist | null
  macroCi: DistCi | null
  macroCiMethod: DistCiMethod | null
  micro: Dist | null
  microCi: DistCi | null
  microCiMethod: DistCiMethod | null
  hallucinationRate: number | null
  hallucinationCi: [number, number] | null
  hallucinationCiMethod: CiMethod | null
  /** Responses by strict label. */
  strict: Dist
}

export interface EvalOptions {
  seed?: number
  replicates?: number
}

interface Tally {
  e: number
  n: number
  c: number
}

function tally(labels: readonly RefClass[]): Tally {
  const t = { e: 0, n: 0, c: 0 }
  for (const l of labels) {
    if (l === 'entailment') t.e++
    else if (l === 'neutral') t.n++
    else t.c++
  }
  return t
}

export function strictLabel(labels: readonly RefClass[]): RefClass | null {
  if (labels.length === 0) return null
  if (labels.includes('contradiction')) return 'contradiction'
  if (labels.includes('neutral')) return 'neutral'
  return 'entailment'
}

const dist = (e: number, n: number, c: number, d: number): Dist => ({
  entailment: e / d,
  neutral: n / d,
  contradiction: c / d,
})

/** Point figures of a set of labelled responses (no abstentions among them). */
function point(rows: readonly Tally[]) {
  let me = 0
  let mn = 0
  let mc = 0
  let te = 0
  let tn = 0
  let tc = 0
  let hall = 0
  for (const t of rows) {
    const total = t.e + t.n + t.c
    me += t.e / total
    mn += t.n / total
    mc += t.c / total
    te += t.e
    tn += t.n
    tc += t.c
    if (t.c > 0) hall++
  }
  const m = rows.length
  const triplets = te + tn + tc
  return {
    macro: m === 0 ? null : dist(me, mn, mc, m),
    micro: triplets === 0 ? null : dist(te, tn, tc, triplets),
    hallucination: m === 0 ? null : hall / m,
    triplets,
    counts: { e: te, n: tn, c: tc },
  }
}

function percentile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo)
}

function band(values: Float64Array): [number, number] {
  const s = values.sort()
  return [percentile(s, 0.025), percentile(s, 0.975)]
}

export function evaluateResponses(responses: readonly Response[], opts: EvalOptions = {}): RefFigures {
  const abstentions = responses.filter((r) => r.triplets === 0).length
  const labelled = responses.filter((r) => r.triplets > 0 && r.labels.length > 0)
  const rows = labelled.map((r) => tally(r.labels))
  const p = point(rows)
  const strict: Dist = { entailment: 0, neutral: 0, contradiction: 0 }
  for (const r of labelled) strict[strictLabel(r.labels)!]++

  // One bootstrap over responses serves every figure: resampling responses keeps each
  // response's triplets together, as the unit the benchmark samples is the response.
  const m = rows.length
  const reps = opts.replicates ?? 1000
  const samples = {
    macro: REFCHECKER_CLASSES.map(() => new Float64Array(reps)),
    micro: REFCHECKER_CLASSES.map(() => new Float64Array(reps)),
    hall: new Float64Array(reps),
  }
  if (m > 0 && reps > 0) {
    // Per-response figures in typed arrays: a replicate is then m random reads and sums.
    const share = REFCHECKER_CLASSES.map(() => new Float64Array(m))
    const count = REFCHECKER_CLASSES.map(() => new Float64Array(m))
    const size = new Float64Array(m)
    const hall = new Uint8Array(m)
    rows.forEach((t, i) => {
      const total = t.e + t.n + t.c
      size[i] = total
      ;[t.e, t.n, t.c].forEach((x, j) => {
        share[j]![i] = x / total
        count[j]![i] = x
      })
      hall[i] = t.c > 0 ? 1 : 0
    })
    const rand = mulberry32(opts.seed ?? 1)
    const sumShare = new Float64Array(3)
    const sumCount = new Float64Array(3)
    for (let r = 0; r < reps; r++) {
      sumShare.fill(0)
      sumCount.fill(0)
      let total = 0
      let h = 0
      for (let i = 0; i < m; i++) {
        const k = Math.floor(rand() * m)
        for (let j = 0; j < 3; j++) {
          sumShare[j]! += share[j]![k]!
          sumCount[j]! += count[j]![k]!
        }
        total += size[k]!
        h += hall[k]!
      }
      for (let j = 0; j < 3; j++) {
        samples.macro[j]![r] = sumShare[j]! / m
        samples.micro[j]![r] = sumCount[j]! / total
      }
      samples.hall[r] = h / m
    }
  }
  const canBoot = m > 0 && reps > 0
  const ciOf = (
    value: Dist | null,
    kind: 'macro' | 'micro',
    trials: number,
    successes: (k: RefClass) => number,
  ): { ci: DistCi; method: DistCiMethod } | null => {
    if (!value) return null
    const ci = {} as DistCi
    const method = {} as DistCiMethod
    REFCHECKER_CLASSES.forEach((k, j) => {
      const got = widerCi(successes(k), trials, () => (canBoot ? band(samples[kind][j]!) : null))
      ci[k] = got.ci
      method[k] = got.method
    })
    return { ci, method }
  }
  const countOf = (k: RefClass) =>
    k === 'entailment' ? p.counts.e : k === 'neutral' ? p.counts.n : p.counts.c
  const hallCount = rows.filter((t) => t.c > 0).length
  // A macro share is a mean of per-response shares; Wilson's stand-in treats it as a share of
  // responses, which is what it becomes when every response has one triplet.
  const macro = ciOf(p.macro, 'macro', m, (k) => (p.macro ? p.macro[k] * m : 0))
  // Micro shares are counted over triplets but resampled by response: the clustered case.
  const micro = ciOf(p.micro, 'micro', p.triplets, countOf)
  const abstention = wilsonCi(abstentions, responses.length)
  const hallucination: ChosenCi =
    p.hallucination === null
      ? { ci: null, method: null }
      : widerCi(hallCount, m, () => (canBoot ? band(samples.hall) : null))
  return {
    responses: responses.length,
    abstentions,
    abstentionRate: responses.length === 0 ? null : abstentions / responses.length,
    abstentionCi: abstention.ci,
    abstentionCiMethod: abstention.method,
    judged: m,
    triplets: p.triplets,
    macro: p.macro,
    macroCi: macro?.ci ?? null,
    macroCiMethod: macro?.method ?? null,
    micro: p.micro,
    microCi: micro?.ci ?? null,
    microCiMethod: micro?.method ?? null,
    hallucinationRate: p.hallucination,
    hallucinationCi: hallucination.ci,
    hallucinationCiMethod: hallucination.method,
    strict,
  }
}

/** Overall and per-variant figures of one source. */
export function evaluateByVariant(
  responses: readonly Response[],
  opts: EvalOptions = {},
): RefFigures & { byVariant: Record<string, RefFigures> } {
  const variants = [...new Set(responses.map((r) => r.variant))].sort()
  const byVariant: Record<string, RefFigures> = {}
  for (const v of variants)
    byVariant[v] = evaluateResponses(
      responses.filter((r) => r.variant === v),
      opts,
    )
  return { ...evaluateResponses(responses, opts), byVariant }
}

/** One triplet both the humans and a checker labelled, and the response (candidate) it belongs to. */
export interface TripletPair {
  human: RefClass
  judge: RefClass
  response: number
}

/**
 * A checker's per-triplet error rate against the human labels, in the three-way label space,
 * over triplets both labelled. The triplets of one response share its claims and its reference,
 * so a checker that misreads a response tends to miss several of its triplets at once: the
 * bootstrap resamples responses, keeping their triplets together (as the micro shares do), and
 * the wider of it and Wilson's over the triplets is given.
 */
export function tripletErrorRate(
  pairs: readonly TripletPair[],
  opts: EvalOptions = {},
): { n: number; rate: number | null; ci: [number, number] | null; ciMethod: CiMethod | null } {
  const n = pairs.length
  if (n === 0) return { n, rate: null, ci: null, ciMethod: null }
  const wrong = pairs.filter((p) => p.human !== p.judge).length
  const rate = wrong / n
  const got = widerCi(wrong, n, () => {
    const byResponse = new Map<number, { wrong: number; n: number }>()
    for (const p of pairs) {
      const r = byResponse.get(p.response) ?? { wrong: 0, n: 0 }
      r.n++
      if (p.human !== p.judge) r.wrong++
      byResponse.set(p.response, r)
    }
    const clusters = [...byResponse.values()]
    const m = clusters.length
    const wrongOf = Float64Array.from(clusters, (c) => c.wrong)
    const sizeOf = Float64Array.from(clusters, (c) => c.n)
    const rand = mulberry32(opts.seed ?? 1)
    const values = new Float64Array(Math.max(1, opts.replicates ?? 1000))
    for (let r = 0; r < values.length; r++) {
      let w = 0
      let t = 0
      for (let i = 0; i < m; i++) {
        const k = Math.floor(rand() * m)
        w += wrongOf[k]!
        t += sizeOf[k]!
      }
      values[r] = w / t
    }
    return band(values)
  })
  return { n, rate, ci: got.ci, ciMethod: got.method }
}
