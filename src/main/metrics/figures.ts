import type { Figures } from '../../shared/contract/metrics'
import { addPair, binaryFigures, type Cells, emptyCells } from './binary'
import { type BootstrapOptions, errorRateCi, f1Ci } from './bootstrap'
import { ST_ERROR, ST_NA, ST_NONE } from './load'

interface Tally {
  cells: Cells
  judged: number
  na: number
  errors: number
}

const emptyTally = (): Tally => ({ cells: emptyCells(), judged: 0, na: 0, errors: 0 })

function toFigures(t: Tally, boot: BootstrapOptions): Figures {
  const f = binaryFigures(t.cells)
  return {
    n: f.n,
    judged: t.judged,
    na: t.na,
    errors: t.errors,
    naRate: t.judged === 0 ? null : t.na / t.judged,
    transportErrorRate: t.judged === 0 ? null : t.errors / t.judged,
    errorRate: f.errorRate,
    errorRateCi: errorRateCi(t.cells, boot),
    accuracy: f.accuracy,
    f1Unsupported: f.f1Unsupported,
    f1Ci: f1Ci(t.cells, boot),
    kappa: f.kappa,
  }
}

/**
 * Figures overall and per variant in one pass. `status` is null for human rows (every present
 * label is a verdict).
 */
export function figuresByVariant(
  judge: Int8Array,
  gold: Int8Array,
  status: Uint8Array | null,
  variant: Uint16Array,
  variants: readonly string[],
  boot: BootstrapOptions,
): { overall: Figures; cells: Cells; byVariant: Record<string, Figures> } {
  const all = emptyTally()
  const per = variants.map(emptyTally)
  for (let i = 0; i < judge.length; i++) {
    const st = status === null ? (judge[i]! < 0 ? ST_NONE : 1) : status[i]!
    if (st === ST_NONE) continue
    const v = per[variant[i]!]!
    all.judged++
    v.judged++
    if (st === ST_NA) {
      all.na++
      v.na++
    } else if (st === ST_ERROR) {
      all.errors++
      v.errors++
    } else {
      addPair(all.cells, judge[i]!, gold[i]!)
      addPair(v.cells, judge[i]!, gold[i]!)
    }
  }
  const byVariant: Record<string, Figures> = {}
  variants.forEach((name, k) => {
    if (per[k]!.judged > 0) byVariant[name] = toFigures(per[k]!, boot)
  })
  return { overall: toFigures(all, boot), cells: all.cells, byVariant }
}
