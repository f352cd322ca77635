import { BOOTSTRAP_MIN_N, type CiMethod, type RateCiMethod } from '../../../shared/smallSample'
import { wilsonInterval } from './wilson'

export type Interval = [number, number]

export interface ChosenCi<M extends RateCiMethod = CiMethod> {
  ci: Interval | null
  method: M | null
}

/**
 * A bootstrap end the observed count rules out: a lower bound of 0 when some successes were seen,
 * or an upper bound of 1 when some failures were. The percentile bootstrap lands there when
 * enough resamples happen to leave out every observation of the rarer outcome (about a third of
 * resamples of n do, when it was seen once) — an artefact of resampling, not of the data: a rate
 * at which something was observed is not 0.
 */
export function impossibleEnd(iv: Interval, successes: number, trials: number): boolean {
  return (successes > 0 && iv[0] <= 0) || (successes < trials && iv[1] >= 1)
}

/**
 * The interval to print for a proportion `successes / trials`: the seeded bootstrap where it
 * works, Wilson's score interval where it degenerates (few trials, or every outcome alike, when
 * each resample repeats the sample and the bootstrap collapses to a point such as [0–0%]), or
 * where it reaches an end the count rules out (0% with errors observed).
 */
export function proportionCi(
  successes: number,
  trials: number,
  bootstrap: () => Interval | null,
  minN = BOOTSTRAP_MIN_N,
): ChosenCi {
  if (!(trials > 0)) return { ci: null, method: null }
  const degenerate = trials < minN || successes <= 0 || successes >= trials
  if (degenerate) return { ci: wilsonInterval(successes, trials), method: 'wilson' }
  const ci = bootstrap()
  if (ci !== null && impossibleEnd(ci, successes, trials))
    return { ci: wilsonInterval(successes, trials), method: 'wilson' }
  return ci === null ? { ci: null, method: null } : { ci, method: 'bootstrap' }
}

/**
 * The interval of a share whose bootstrap resamples clusters (items, responses: a response's
 * triplets stay together) rather than the `trials` the share is counted over. Over few clusters
 * such a bootstrap is unreliable either way: it can read narrower than the count alone allows
 * (three responses give few distinct resamples), or reach 0% because most resamples left out
 * the one response with an error. Wilson's interval over the trials is the floor: it is right
 * when the trials are independent and too narrow only when they cluster, which is when the
 * bootstrap is the wider. So the wider of the two is given, the bootstrap only where it has no end
 * the count rules out, and `method` says which. `successes` may be fractional (a macro share,
 * a mean of per-target shares, read as a share of `trials`).
 */
export function widerCi(successes: number, trials: number, bootstrap: () => Interval | null): ChosenCi {
  return widerOf(successes, trials, () => {
    const ci = bootstrap()
    return ci === null ? null : { ci, method: 'bootstrap' }
  })
}

/**
 * widerCi where the interval over clusters may be of more than one kind (the bootstrap, or over
 * many candidates the cluster-robust normal one): `clustered` names the one it gives.
 */
export function widerOf<M extends RateCiMethod>(
  successes: number,
  trials: number,
  clustered: () => { ci: Interval; method: M } | null,
): ChosenCi<M | 'wilson'> {
  if (!(trials > 0)) return { ci: null, method: null }
  const wilson = wilsonInterval(successes, trials)
  // Every outcome alike: each resample repeats the sample and the bootstrap is a point.
  if (successes <= 0 || successes >= trials) return { ci: wilson, method: 'wilson' }
  const other = clustered()
  if (other === null || impossibleEnd(other.ci, successes, trials)) return { ci: wilson, method: 'wilson' }
  if (wilson === null || other.ci[1] - other.ci[0] >= wilson[1] - wilson[0]) return other
  return { ci: wilson, method: 'wilson' }
}

/**
 * F1 on the unsupported class is the Dice proportion tp / (tp + (fp + fn) / 2); where its
 * bootstrap degenerates, Wilson's interval is taken on that proportion with the fractional
 * denominator. `n` is the judged targets, the sample the bootstrap resamples.
 */
export function f1CiChoice(
  c: { tp: number; fp: number; fn: number; tn: number },
  bootstrap: () => Interval | null,
  minN = BOOTSTRAP_MIN_N,
): ChosenCi {
  const n = c.tp + c.fp + c.fn + c.tn
  const trials = c.tp + (c.fp + c.fn) / 2
  if (!(trials > 0)) return { ci: null, method: null }
  if (n < minN || c.tp === 0 || c.fp + c.fn === 0)
    return { ci: wilsonInterval(c.tp, trials), method: 'wilson' }
  const ci = bootstrap()
  if (ci !== null && impossibleEnd(ci, c.tp, trials))
    return { ci: wilsonInterval(c.tp, trials), method: 'wilson' }
  return ci === null ? { ci: null, method: null } : { ci, method: 'bootstrap' }
}

/**
 * A Wilson interval over `n` where the count is all there is (no bootstrap behind the figure):
 * percent agreement over shared targets, RAI's corrected share of inconsistent candidates.
 */
export function wilsonCi(successes: number, trials: number): ChosenCi {
  const ci = trials > 0 ? wilsonInterval(successes, trials) : null
  return { ci, method: ci === null ? null : 'wilson' }
}

/**
 * Percent agreement's interval: Wilson's over the `n` shared targets. With two annotators per
 * target the figure is agreeing targets / n, a plain proportion; with more it is the mean share of
 * agreeing pairs per target, read as a share of n (one trial per target, as the macro RefChecker
 * share is), so a target's several pairs do not count as independent evidence.
 */
export function percentAgreementCi(percent: number | null, n: number): Interval | null {
  if (percent === null || !Number.isFinite(percent) || !(n > 0)) return null
  return wilsonInterval(Math.min(n, Math.max(0, percent * n)), n)
}
