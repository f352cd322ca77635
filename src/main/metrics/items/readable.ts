import type { ItemCorrelationRow } from '../../../shared/contract/itemLevel'
import { atBound, BOOTSTRAP_MIN_N, MIN_CORRELATION_PAIRS } from '../../../shared/smallSample'
import { fisherInterval } from '../stats/fisher'
import type { ItemCorrelation } from './correlate'

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
  if (c.n < MIN_CORRELATION_PAIRS)
    return {
      n: c.n,
      pearson: null,
      pearsonCi: null,
      spearman: null,
      spearmanCi: null,
      kendallTauB: null,
      kendallTauBCi: null,
      ciMethod: null,
    }
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
