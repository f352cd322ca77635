import type { AgreementSummary, PairAgreement } from './agreementSummary'
import type { TargetTally } from './targetColumns'

/**
 * What the dataset card counts, tallied target by target while the data file is written (so
 * the labels are read once): verdicts per annotator and the agreement figures of
 * agreementSummary.ts, from counts instead of a matrix of every target's ratings. Control
 * items count towards the labels but not the agreement, as in the Agreement view.
 */
export class CardTally implements TargetTally {
  /** Verdicts given, by annotator id. */
  private readonly given: number[] = []
  /** Each annotator id's place in `annotators`. */
  private readonly index: number[] = []
  private readonly rating: (string | null)[]
  private shared = 0
  private pSum = 0
  private total = 0
  private readonly totals = new Map<string, number>()
  private readonly pairs: {
    n: number
    same: number
    a: Map<string, number>
    b: Map<string, number>
  }[]
  private readonly keys: string[] = []
  private readonly counts: number[] = []

  /** `annotators`: whose agreement the card reports, in its order. */
  constructor(private readonly annotators: readonly { id: number; name: string }[]) {
    annotators.forEach((a, i) => {
      this.index[a.id] = i
    })
    this.rating = annotators.map(() => null)
    const n = annotators.length
    this.pairs = Array.from({ length: (n * (n - 1)) / 2 }, () => ({
      n: 0,
      same: 0,
      a: new Map<string, number>(),
      b: new Map<string, number>(),
    }))
  }

  target(
    by: readonly number[],
    codes: readonly number[],
    verdicts: readonly string[],
    control = false,
  ): void {
    const r = this.rating
    r.fill(null)
    let given = 0
    for (let k = 0; k < by.length; k++) {
      const a = by[k]!
      this.given[a] = (this.given[a] ?? 0) + 1
      if (control) continue
      const i = this.index[a]
      if (i === undefined) continue
      r[i] = verdicts[codes[k]!]!
      given++
    }
    if (given < 2) return
    this.shared++
    // The verdicts of this target and how often each was given, in annotator order.
    const keys = this.keys
    const counts = this.counts
    keys.length = 0
    counts.length = 0
    for (const v of r) {
      if (v === null) continue
      const at = keys.indexOf(v)
      if (at < 0) {
        keys.push(v)
        counts.push(1)
      } else counts[at]!++
    }
    let agreeing = 0
    for (const c of counts) agreeing += c * (c - 1)
    this.pSum += agreeing / (given * (given - 1))
    this.total += given
    for (let k = 0; k < keys.length; k++)
      this.totals.set(keys[k]!, (this.totals.get(keys[k]!) ?? 0) + counts[k]!)
    let p = 0
    for (let i = 0; i < r.length; i++)
      for (let j = i + 1; j < r.length; j++, p++) {
        const x = r[i] ?? null
        const y = r[j] ?? null
        if (x === null || y === null) continue
        const pair = this.pairs[p]!
        pair.n++
        if (x === y) pair.same++
        pair.a.set(x, (pair.a.get(x) ?? 0) + 1)
        pair.b.set(y, (pair.b.get(y) ?? 0) + 1)
      }
  }

  /** Verdicts per annotator id on current targets (what labelCountsByAnnotator counts). */
  get labelled(): Map<number, number> {
    const out = new Map<number, number>()
    this.given.forEach((n, a) => {
      out.set(a, n)
    })
    return out
  }

  /** The figures agreementSummary gives for the same labels. */
  agreement(): AgreementSummary {
    const pairs: PairAgreement[] = []
    let p = 0
    for (let i = 0; i < this.annotators.length; i++)
      for (let j = i + 1; j < this.annotators.length; j++, p++) {
        const pair = this.pairs[p]!
        if (pair.n === 0) continue
        let pe = 0
        for (const [k, ca] of pair.a) pe += (ca / pair.n) * ((pair.b.get(k) ?? 0) / pair.n)
        pairs.push({
          a: this.annotators[i]!.name,
          b: this.annotators[j]!.name,
          shared: pair.n,
          kappa: pe >= 1 - 1e-12 ? null : (pair.same / pair.n - pe) / (1 - pe),
        })
      }
    let fleiss: number | null = null
    if (this.shared > 0) {
      let pe = 0
      for (const c of this.totals.values()) pe += (c / this.total) ** 2
      fleiss = pe >= 1 - 1e-12 ? null : (this.pSum / this.shared - pe) / (1 - pe)
    }
    return {
      sharedTargets: this.shared,
      percentAgreement: this.shared === 0 ? null : this.pSum / this.shared,
      fleissKappa: fleiss,
      pairs,
    }
  }
}
