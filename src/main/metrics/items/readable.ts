import type { ItemCorrelationRow, SummaryLevelRow } from '../../../shared/contract/itemLevel'
import { atBound, BOOTSTRAP_MIN_N, MIN_CORRELATION_PAIRS } from '../../../shared/smallSample'
import { fisherInterval } from '../stats/fisher'
import type { LevelIntervals } from '../stats/levelIntervals'
import type { SummaryLevel } from '../stats/levels'
import type { ItemCorrelation } from './correlate'

/** What a level too small to read shows: no coefficient, no interval. */
const NO_COEFFICIENTS = {
  pearson: null,
  pearsonCi: null,
  spearman: null,
  spearmanCi: null,
  kendallTauB: null,
  kendallTauBCi: null,
  ciMethod: null,
} as const

/**
 * The small-sample rule laid over an item correlation (pure). The coefficients and bootstrap
 * intervals underneath stay those of `itemCorrelation`, which the oracle test holds to the code
 * it replaced; only what is shown changes:
 * - under MIN_CORRELATION_PAIRS responses no coefficient is given: over two they are ±1 whatever
 *   the scores, over three almost so, and a reader cannot tell that from a real 1.000;
 * - under BOOTSTRAP_MIN_N the interval is Fisher's z instead of the percentile bootstrap, which
 *   over a handful of pairs keeps redrawing the same few points and reads far too narrow;
 * - from BOOTSTRAP_MIN_N on, the bootstrap's figures unchanged;
 * - at ±1 no interval by either method (shared/smallSample.ts `atBound` says why): the views
 *   print "interval undefined at ±1" instead of a bare 1.000 or a fake [1.000, 1.000].
 */
export function readableCorrelation(c: ItemCorrelation, level = 0.95): ItemCorrelationRow {
  if (c.n < MIN_CORRELATION_PAIRS) return { n: c.n, ...NO_COEFFICIENTS }
  if (c.n >= BOOTSTRAP_MIN_N) {
    const pearsonCi = atBound(c.pearson) ? null : c.pearsonCi
    const spearmanCi = atBound(c.spearman) ? null : c.spearmanCi
    const kendallTauBCi = atBound(c.kendallTauB) ? null : c.kendallTauBCi
    const any = pearsonCi !== null || spearmanCi !== null || kendallTauBCi !== null
    return { ...c, pearsonCi, spearmanCi, kendallTauBCi, ciMethod: any ? 'bootstrap' : null }
  }
  const pearsonCi = fisherInterval('pearson', c.pearson, c.n, level)
  const spearmanCi = fisherInterval('spearman', c.spearman, c.n, level)
  const kendallTauBCi = fisherInterval('kendallTauB', c.kendallTauB, c.n, level)
  const any = pearsonCi !== null || spearmanCi !== null || kendallTauBCi !== null
  return { ...c, pearsonCi, spearmanCi, kendallTauBCi, ciMethod: any ? 'fisher' : null }
}

const COEFFICIENTS = ['pearson', 'spearman', 'kendallTauB'] as const

function width(iv: readonly [number, number] | null): number {
  return iv === null ? 0 : iv[1] - iv[0]
}

/**
 * The summary level with its small-sample rule and its interval (stats/levelIntervals.ts,
 * documents resampled): no coefficient under MIN_CORRELATION_PAIRS documents, none of the
 * intervals at ±1 (an average of ±1s: every document agreed, and a percentile bootstrap can only
 * repeat it, as `atBound` says of any correlation).
 */
export function readableSummaryLevel(s: SummaryLevel, iv: LevelIntervals): SummaryLevelRow {
  if (s.items < MIN_CORRELATION_PAIRS) return { ...s, ...NO_COEFFICIENTS }
  const pearsonCi = atBound(s.pearson) ? null : iv.pearson
  const spearmanCi = atBound(s.spearman) ? null : iv.spearman
  const kendallTauBCi = atBound(s.kendallTauB) ? null : iv.kendallTauB
  const any = pearsonCi !== null || spearmanCi !== null || kendallTauBCi !== null
  return { ...s, pearsonCi, spearmanCi, kendallTauBCi, ciMethod: any ? 'bootstrap' : null }
}

/**
 * The interval stretched to hold the coefficient itself. Redrawing documents adds noise to every
 * system's means, which pulls the resampled correlations towards 0 (attenuation), so over systems
 * that the observed means rank almost perfectly the percentile interval can end below the
 * coefficient it stands beside, which reads as a contradiction. None at ±1 (`atBound`).
 */
function around(r: number | null, iv: readonly [number, number] | null): [number, number] | null {
  if (r === null || iv === null || atBound(r)) return null
  return [Math.min(iv[0], r), Math.max(iv[1], r)]
}

/**
 * The system level: the coefficients over the systems' means (`readableCorrelation` of them),
 * with the interval of the bootstrap over documents and systems (stats/levelIntervals.ts). Under
 * BOOTSTRAP_MIN_N systems that bootstrap keeps redrawing the same few systems, as any does over
 * few pairs, while Fisher's z over the systems ignores that their means rest on a sample of
 * documents; the wider of the two is given, so neither failing reads as precision.
 */
export function readableSystemLevel(means: ItemCorrelationRow, both: LevelIntervals): ItemCorrelationRow {
  if (means.n < MIN_CORRELATION_PAIRS) return means
  const boot = {
    pearsonCi: around(means.pearson, both.pearson),
    spearmanCi: around(means.spearman, both.spearman),
    kendallTauBCi: around(means.kendallTauB, both.kendallTauB),
  }
  const bootWidth = COEFFICIENTS.reduce((a, k) => a + width(boot[`${k}Ci`]), 0)
  const bootAny = bootWidth > 0 || COEFFICIENTS.some((k) => boot[`${k}Ci`] !== null)
  if (means.n < BOOTSTRAP_MIN_N && means.ciMethod === 'fisher') {
    const fisherWidth = COEFFICIENTS.reduce((a, k) => a + width(means[`${k}Ci`]), 0)
    if (fisherWidth >= bootWidth) return means
  }
  return { ...means, ...boot, ciMethod: bootAny ? 'bootstrap' : null }
}
