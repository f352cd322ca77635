import { CLUSTER_NORMAL_ABOVE } from '../../../shared/smallSample'
import type { BootstrapOptions, Interval } from './bootstrap'
import { type ClusterPattern, clusterIntervals } from './clusterBootstrap'
import { type ClusterSums, clusterSumsOf, normalIntervalsOfSums } from './clusterNormal'

/** An interval over candidates and the name of the way it was made (`ci_method`). */
export interface CandidateInterval {
  ci: Interval
  method: 'bootstrap' | 'cluster-robust'
}

/**
 * A figure's candidates as the intervals read them: the sums the closed form needs, and the
 * patterns the bootstrap draws from, null where `drawsBootstrap` said no draw will be needed
 * (grouping a million targets' candidates into patterns was most of what was left of the
 * Compare view's cold open once the closed form replaced the draws).
 */
export interface CandidateClusters {
  /** Candidates with a judged pair. */
  count: number
  sums: ClusterSums
  patterns: readonly ClusterPattern[] | null
}

export function clustersOfPatterns(patterns: readonly ClusterPattern[]): CandidateClusters {
  const sums = clusterSumsOf(patterns)
  return { count: sums.errorRate.m, sums, patterns }
}

const inside = (ci: Interval | null): ci is Interval => ci !== null && ci[0] > 0 && ci[1] < 1

function normalOf(sums: ClusterSums, level: number | undefined) {
  return sums.errorRate.m > CLUSTER_NORMAL_ABOVE ? normalIntervalsOfSums(sums, level) : null
}

/** Whether candidateIntervals will draw the bootstrap for either figure of these sums. */
export function drawsBootstrap(sums: ClusterSums, level: number | undefined): boolean {
  const normal = normalOf(sums, level)
  return !(normal && inside(normal.errorRate) && inside(normal.f1))
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
  clusters: CandidateClusters,
  boot: BootstrapOptions,
): { errorRate: () => CandidateInterval | null; f1: () => CandidateInterval | null } {
  let drawn: ReturnType<typeof clusterIntervals> | null = null
  const bootstrap = (which: 'errorRate' | 'f1'): CandidateInterval | null => {
    if (clusters.patterns === null)
      throw new Error('candidateIntervals: the bootstrap is needed but its patterns were not kept')
    drawn ??= clusterIntervals(clusters.patterns, boot)
    const ci = drawn[which]
    return ci === null ? null : { ci, method: 'bootstrap' }
  }
  const normal = normalOf(clusters.sums, boot.level)
  const choose = (which: 'errorRate' | 'f1') => (): CandidateInterval | null => {
    const ci = normal?.[which] ?? null
    return inside(ci) ? { ci, method: 'cluster-robust' } : bootstrap(which)
  }
  return { errorRate: choose('errorRate'), f1: choose('f1') }
}

/** A run's or a person's candidates, per variant (in the variants' order) and over them all. */
export interface VariantClusters {
  byVariant: readonly CandidateClusters[]
  overall: CandidateClusters
}

/** The clusters of patterns already grouped, every one kept (the overall's are the variants' in turn). */
export function variantClustersOfPatterns(
  perVariant: readonly (readonly ClusterPattern[])[],
): VariantClusters {
  return { byVariant: perVariant.map(clustersOfPatterns), overall: clustersOfPatterns(perVariant.flat()) }
}
