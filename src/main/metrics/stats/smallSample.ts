import { BOOTSTRAP_MIN_N, type CiMethod } from '../../../shared/smallSample'
import { wilsonInterval } from './wilson'

export type Interval = [number, number]

export interface ChosenCi {
  ci: Interval | null
  method: CiMethod | null
}

/**
 * The interval to print for a proportion `successes / trials`: the seeded bootstrap where it
 * works, Wilson's score interval where it degenerates (few trials, or every outcome alike, when
 * each resample repeats the sample and the bootstrap collapses to a point such as [0–0%]).
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
  return ci === null ? { ci: null, method: null } : { ci, method: 'bootstrap' }
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
  return ci === null ? { ci: null, method: null } : { ci, method: 'bootstrap' }
}
