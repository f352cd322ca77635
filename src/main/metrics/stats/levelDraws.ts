import { mulberry32 } from './bootstrap'

/**
 * The resamples behind the summary- and system-level intervals (levelIntervals.ts), drawn once
 * and shared by every correlation line of a dataset. Every line starts from the same seed, so
 * what a resample draws depends only on how many documents (and systems) the line has: lines
 * over as many draw the very same resamples, in the very same order, and drawing them once per
 * count spares each line its random numbers. The system level's human side is kept as well:
 * every judge run set against the same people's scores over the same responses adds up the
 * same human sums in every resample. Pure.
 */

export interface LevelBootstrap {
  seed: number
  replicates: number
  level?: number
}

/** Above this many kept numbers a line draws its resamples afresh: 8 MB at most per count. */
const KEPT_MAX = 2_000_000

/** How often each of n units was drawn in one resample of n. */
export function drawCounts(rand: () => number, counts: Int32Array): Int32Array {
  const n = counts.length
  counts.fill(0)
  for (let k = 0; k < n; k++) counts[Math.floor(rand() * n)]!++
  return counts
}

/**
 * One system-level resample: the documents it drew, ascending, `doc[e]` drawn `times[e]` times
 * for e in [from, to); and how often each system was drawn, `sys[sysFrom + s]`.
 */
export interface SystemResample {
  doc: Int32Array
  times: Int32Array
  from: number
  to: number
  sys: Int32Array
  sysFrom: number
}

/** Every replicate's system-level resample, kept: replicate r's documents at [start[r], start[r + 1]). */
interface KeptSystemDraws {
  start: Int32Array
  doc: Int32Array
  times: Int32Array
  /** replicate r's system counts at [r · systems, (r + 1) · systems) */
  sys: Int32Array
}

/**
 * Successive system-level resamples of one seed: per replicate the documents, then the systems,
 * from one stream (the order levelIntervals.ts has always drawn them in). `at(r)` must be asked
 * in order, r = 0, 1, …, unless the draws are kept.
 */
export interface SystemDraws {
  at(r: number): SystemResample
}

/** The human side's sums of every replicate, per system: replicate r at [r · systems, …). */
export interface HumanSums {
  h: Float64Array
  w: Float64Array
}

/** What the human sums depend on: the cells (levelIntervals.ts) without the judge's scores. */
export interface HumanKey {
  docs: number
  systems: number
  doc: Int32Array
  sys: Int32Array
  human: Float64Array
  count: Int32Array
}

/** Kept human sums: the lines alternate between few human sides (the gold, each annotator's others). */
const HUMANS_KEPT = 4

function sameInts(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

function sameKey(a: HumanKey, b: HumanKey): boolean {
  return (
    a.docs === b.docs &&
    a.systems === b.systems &&
    sameInts(a.doc, b.doc) &&
    sameInts(a.sys, b.sys) &&
    sameInts(a.count, b.count) &&
    sameNumbers(a.human, b.human)
  )
}

export class LevelDraws {
  private readonly summaries = new Map<number, Int32Array>()
  private readonly systemDraws = new Map<string, KeptSystemDraws>()
  private readonly humans: { key: HumanKey; sums: HumanSums }[] = []

  constructor(
    private readonly boot: LevelBootstrap,
    private readonly keepAtMost = KEPT_MAX,
  ) {}

  fits(boot: LevelBootstrap): boolean {
    return boot.seed === this.boot.seed && boot.replicates === this.boot.replicates
  }

  /**
   * The documents each summary-level resample of n draws, in draw order: replicate r's at
   * [r · n, (r + 1) · n). Null when too many to keep.
   */
  summary(n: number): Int32Array | null {
    const { replicates, seed } = this.boot
    if (replicates * n > this.keepAtMost) return null
    let got = this.summaries.get(n)
    if (!got) {
      got = new Int32Array(replicates * n)
      const rand = mulberry32(seed)
      for (let m = 0; m < got.length; m++) got[m] = Math.floor(rand() * n)
      this.summaries.set(n, got)
    }
    return got
  }

  /** The system-level resamples over `docs` documents and `systems` systems. */
  system(docs: number, systems: number): SystemDraws {
    const { replicates, seed } = this.boot
    if (replicates * (docs + systems) > this.keepAtMost) return freshSystemDraws(seed, docs, systems)
    const key = `${docs}:${systems}`
    let kept = this.systemDraws.get(key)
    if (!kept) {
      kept = keepSystemDraws(seed, replicates, docs, systems)
      this.systemDraws.set(key, kept)
    }
    const k = kept
    const out: SystemResample = { doc: k.doc, times: k.times, from: 0, to: 0, sys: k.sys, sysFrom: 0 }
    return {
      at(r) {
        out.from = k.start[r]!
        out.to = k.start[r + 1]!
        out.sysFrom = r * systems
        return out
      },
    }
  }

  /** The human sums kept for these cells, if a line over the same ones worked them out. */
  humanSums(key: HumanKey): HumanSums | null {
    return this.humans.find((e) => sameKey(e.key, key))?.sums ?? null
  }

  keepHumanSums(key: HumanKey, sums: HumanSums): void {
    this.humans.unshift({ key, sums })
    this.humans.length = Math.min(this.humans.length, HUMANS_KEPT)
  }
}

function keepSystemDraws(seed: number, replicates: number, docs: number, systems: number): KeptSystemDraws {
  const rand = mulberry32(seed)
  const docCounts = new Int32Array(docs)
  const sysCounts = new Int32Array(systems)
  const start = new Int32Array(replicates + 1)
  const doc = new Int32Array(replicates * docs)
  const times = new Int32Array(replicates * docs)
  const sys = new Int32Array(replicates * systems)
  let m = 0
  for (let r = 0; r < replicates; r++) {
    drawCounts(rand, docCounts)
    drawCounts(rand, sysCounts)
    start[r] = m
    for (let d = 0; d < docs; d++)
      if (docCounts[d] !== 0) {
        doc[m] = d
        times[m++] = docCounts[d]!
      }
    sys.set(sysCounts, r * systems)
  }
  start[replicates] = m
  // Views, not copies: the tail past m is never written, so its memory is never touched.
  return { start, doc: doc.subarray(0, m), times: times.subarray(0, m), sys }
}

/** The same resamples drawn one at a time, for counts too large to keep. */
function freshSystemDraws(seed: number, docs: number, systems: number): SystemDraws {
  const rand = mulberry32(seed)
  const docCounts = new Int32Array(docs)
  const out: SystemResample = {
    doc: new Int32Array(docs),
    times: new Int32Array(docs),
    from: 0,
    to: 0,
    sys: new Int32Array(systems),
    sysFrom: 0,
  }
  return {
    at() {
      drawCounts(rand, docCounts)
      drawCounts(rand, out.sys)
      let m = 0
      for (let d = 0; d < docs; d++)
        if (docCounts[d] !== 0) {
          out.doc[m] = d
          out.times[m++] = docCounts[d]!
        }
      out.to = m
      return out
    },
  }
}
