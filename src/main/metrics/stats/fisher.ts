import { probit } from 'simple-statistics'
import { atBound, MIN_CORRELATION_PAIRS } from '../../../shared/smallSample'
import { Z_95 } from './wilson'

/**
 * Fisher's z interval for a correlation coefficient: atanh(r) is close to normal with a standard
 * error that depends on n alone, so the interval is tanh(atanh(r) ± z·se). Used where a
 * percentile bootstrap over so few pairs would mostly redraw the same two or three points and
 * read far too narrow (or collapse to ±1).
 *
 * Standard errors, as recommended by Bonett & Wright (2000, Psychometrika 65:23–28):
 * - Pearson: 1 / √(n − 3) (Fisher 1921);
 * - Spearman: √((1 + r²/2) / (n − 3)) (Bonett & Wright's own, better than Fieller's 1.06 when
 *   the correlation is high);
 * - Kendall's τ-b: √(0.437 / (n − 4)) (Fieller, Hartley & Pearson 1957).
 */

export type Coefficient = 'pearson' | 'spearman' | 'kendallTauB'

/**
 * The z of a two-sided interval at `level`. At 95%, every interval here is made at, the exact
 * constant the Wilson interval uses; at another level simple-statistics' `probit`, whose
 * approximation (within 0.01: 1.957 for 1.960, 2.569 for 2.576) is well inside the approximation that
 * Fisher's z is itself.
 */
export function zFor(level: number): number {
  return level === 0.95 ? Z_95 : probit(1 - (1 - level) / 2)
}

function standardError(coefficient: Coefficient, r: number, n: number): number | null {
  if (coefficient === 'kendallTauB') return n > 4 ? Math.sqrt(0.437 / (n - 4)) : null
  if (n <= 3) return null
  return coefficient === 'spearman' ? Math.sqrt((1 + (r * r) / 2) / (n - 3)) : 1 / Math.sqrt(n - 3)
}

/**
 * The interval at `level` (two-sided), or null where there is none to give: too few pairs for
 * the standard error, or |r| = 1, whose z is infinite (an interval of [1, 1] would claim a
 * certainty that a handful of pairs cannot carry; shared/smallSample.ts `atBound` says why no
 * other interval is given there either).
 */
export function fisherInterval(
  coefficient: Coefficient,
  r: number | null,
  n: number,
  level = 0.95,
): [number, number] | null {
  if (r === null || !Number.isFinite(r) || n < MIN_CORRELATION_PAIRS || atBound(r)) return null
  const se = standardError(coefficient, r, n)
  const z = Math.atanh(r)
  if (se === null || !Number.isFinite(z)) return null
  const half = zFor(level) * se
  return [Math.tanh(z - half), Math.tanh(z + half)]
}
