import { labelsInTargetRange } from '../labels/reads'
import type { Db } from '../store/connection'

/**
 * Every label on a range of target ids, read in one ordered pass into typed arrays: target,
 * annotator, verdict (as a code), seconds and guidelines version, with the rare evidence and
 * notes kept aside by label. An export looks up a target's labels by binary search instead of
 * building and parsing a JSON array per target in SQL, and holds a few bytes per label rather
 * than an object.
 */
export class LabelTable {
  /** Label k is on target `target[k]`; labels are ordered by target, then annotator id. */
  target: Int32Array
  annotator: Int32Array
  /** Index into `verdicts`, or -1 for a cleared label. */
  verdict: Int32Array
  seconds: Float64Array
  /** Guidelines version, NaN when none was recorded. */
  guidelines: Float64Array
  /** Evidence JSON of the labels with any (the rest hold an empty list). */
  readonly evidence = new Map<number, string>()
  readonly notes = new Map<number, string>()
  readonly verdicts: string[] = []
  size = 0

  constructor(capacity = 1024) {
    this.target = new Int32Array(capacity)
    this.annotator = new Int32Array(capacity)
    this.verdict = new Int32Array(capacity)
    this.seconds = new Float64Array(capacity)
    this.guidelines = new Float64Array(capacity)
  }

  /** The first label of `targetId` (or where it would be); its labels run while target[k] matches. */
  first(targetId: number): number {
    let lo = 0
    let hi = this.size
    const t = this.target
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (t[mid]! < targetId) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private grow(): void {
    const cap = this.target.length * 2
    const more = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap)
      b.set(a)
      return b
    }
    this.target = more(this.target, (n) => new Int32Array(n))
    this.annotator = more(this.annotator, (n) => new Int32Array(n))
    this.verdict = more(this.verdict, (n) => new Int32Array(n))
    this.seconds = more(this.seconds, (n) => new Float64Array(n))
    this.guidelines = more(this.guidelines, (n) => new Float64Array(n))
  }

  push(
    target: number,
    annotator: number,
    verdict: number,
    seconds: number,
    guidelines: number | null,
    evidence: string | null,
    note: string | null,
  ): void {
    if (this.size === this.target.length) this.grow()
    const k = this.size++
    this.target[k] = target
    this.annotator[k] = annotator
    this.verdict[k] = verdict
    this.seconds[k] = seconds
    this.guidelines[k] = guidelines ?? Number.NaN
    if (evidence !== null) this.evidence.set(k, evidence)
    if (note !== null) this.notes.set(k, note)
  }
}

/**
 * The labels on targets `lo`..`hi` (ids), whatever dataset they belong to: the caller looks up
 * its own. `known`: the verdicts the schema allows, coded in SQL.
 */
export function loadLabelTable(db: Db, lo: number, hi: number, known: readonly string[] = []): LabelTable {
  const table = new LabelTable()
  const codes = new Map<string, number>()
  for (const v of known) codes.set(v, table.verdicts.push(v) - 1)
  for (const [t, a, v, s, g, e, n] of labelsInTargetRange(db, lo, hi, known)) {
    let code = -1
    if (typeof v === 'number') code = v
    else if (v !== null) {
      code = codes.get(v) ?? -1
      if (code < 0) {
        code = table.verdicts.push(v) - 1
        codes.set(v, code)
      }
    }
    table.push(t, a, code, s, g, e, n)
  }
  return table
}
