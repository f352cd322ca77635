import { CLUSTER_NORMAL_ABOVE } from '../../../shared/smallSample'
import type { BootstrapOptions, Interval } from './bootstrap'
import { type ClusterPattern, clusterCount, clusterIntervals } from './clusterBootstrap'
import { clusterNormalIntervals } from './clusterNormal'

/** An interval over candidates and the name of the way it was made (`ci_method`). */
export interface CandidateInterval {
  ci: Interval
  method: 'bootstrap' | 'cluster-robust'
}

/**
 * Which interval over candidates ER and F1 get. Up to CLUSTER_NORMAL_ABOVE candidates, the
 * cluster bootstrap: there the shape of the sampling distribution matters and a normal interval
 * can mislead. Above it, the cluster-robust normal interval, which the bootstrap approaches there
 * (within Monte Carlo noise) at a fraction of its cost — unless that interval reaches past 0 or 1,
 * the sign that the rarer outcome sits in too few candidates for the normal approximation, where
 * the bootstrap is drawn after all. Each figure is decided on its own, and the bootstrap is drawn
 * at most once for both.
 */
export function candidateIntervals(
  patterns: readonly ClusterPattern[],
  boot: BootstrapOptions,
): { errorRate: () => CandidateInterval | null; f1: () => CandidateInterval | null } {
  let drawn: ReturnType<typeof clusterIntervals> | null = null
  const bootstrap = (which: 'errorRate' | 'f1'): CandidateInterval | null => {
    drawn ??= clusterIntervals(patterns, boot)
    const ci = drawn[which]
    return ci === null ? null : { ci, method: 'bootstrap' }
  }
  const normal =
    clusterCount(patterns) > CLUSTER_NORMAL_ABOVE ? clusterNormalIntervals(patterns, boot.level) : null
  const choose = (which: 'errorRate' | 'f1') => (): CandidateInterval | null => {
    const ci = normal?.[which] ?? null
    return ci !== null && ci[0] > 0 && ci[1] < 1 ? { ci, method: 'cluster-robust' } : bootstrap(which)
  }
  return { errorRate: choose('errorRate'), f1: choose('f1') }
}
