import type { CandidateCells } from './clusterTally'
import { cellOf, ERRORS, FIGURE_SLOTS, FIRST_CELL, JUDGED, NA } from './figures'
import { type SpanColumns, ST_ERROR, ST_NA, ST_NONE, ST_OK } from './runStatus'
import type { CorrectnessBits } from './stats/mcnemar'

/**
 * Everything the judge figures count of one run, in one pass over the span it reached: the
 * figure counts per variant (figuresByVariant's), the binary and full confusion matrices
 * (confusionMatrix's), the correctness bits McNemar's test reads (correctness's) and each
 * candidate's four cells, which its intervals over candidates are drawn from (clusterTally.ts).
 * Twenty runs were read five times each; every count is an integer, so one pass gives the same
 * figures to the last digit (test/metrics/judgeTally.test.ts holds it to the separate passes).
 */
export interface RunTally {
  /** FIGURE_SLOTS counters per variant, as figuresOfCounts reads them */
  counts: Int32Array
  /** [gold][judge] over the binary codes */
  binary: number[][]
  /** [gold][judge] over the label codes */
  full: number[][]
  correct: CorrectnessBits
  /**
   * Per variant, the candidates with a judged pair against gold, in the order the pass met them;
   * their cells are left in the `cells` handed in, for clustersInCells to read and clear.
   */
  touched: number[][]
}

export function tallyRun(
  run: Pick<SpanColumns, 'from' | 'to' | 'status' | 'bin' | 'code'>,
  t: { goldBin: Int8Array; goldCode: Int16Array; variant: Uint16Array },
  variants: number,
  labels: number,
  candidates: Pick<CandidateCells, 'of' | 'base' | 'cells'>,
): RunTally {
  const { from, to, status, bin, code } = run
  const { goldBin, goldCode, variant } = t
  const { of, base, cells } = candidates
  const touched: number[][] = Array.from({ length: variants }, () => [])
  // One counter per verdict: N/A, error, its cell, or (judged, no binary outcome on one side)
  // the slot past the cells; JUDGED is their sum, filled in after the pass. A second increment per
  // verdict cost as much as the rest of the pass.
  const width = FIGURE_SLOTS + 1
  const tally = new Int32Array(variants * width)
  const binary = new Int32Array(4)
  const full = new Int32Array(labels * labels)
  const words = Math.ceil(goldBin.length / 32)
  const judged = new Uint32Array(words)
  const right = new Uint32Array(words)
  for (let w = from >>> 5; from < to && w <= (to - 1) >>> 5; w++) {
    // Each word's bits gathered in locals and stored once (see correctness.ts).
    let jw = 0
    let rw = 0
    const end = Math.min(to, (w + 1) * 32)
    for (let i = Math.max(from, w * 32); i < end; i++) {
      const k = i - from
      const st = status[k]!
      const j = bin[k]!
      const g = goldBin[i]!
      const c = code[k]!
      const gc = goldCode[i]!
      if (j >= 0 && g >= 0 && j < 2 && g < 2) binary[g * 2 + j]!++
      if (c >= 0 && gc >= 0 && c < labels && gc < labels) full[gc * labels + c]!++
      if (st === ST_OK && g >= 0 && j >= 0) {
        jw |= 1 << (i & 31)
        if (j === g) rw |= 1 << (i & 31)
        const c = of[i]! - base
        const o = c * 4
        if (cells[o]! + cells[o + 1]! + cells[o + 2]! + cells[o + 3]! === 0) touched[variant[i]!]!.push(c)
        cells[o + cellOf(j, g) - FIRST_CELL]!++
      }
      if (st === ST_NONE) continue
      // A pair where either side has no binary outcome counts as judged but not in the cells.
      const slot =
        st === ST_NA ? NA : st === ST_ERROR ? ERRORS : j >= 0 && g >= 0 ? cellOf(j, g) : FIGURE_SLOTS
      tally[variant[i]! * width + slot]!++
    }
    judged[w] = jw
    right[w] = rw
  }
  const counts = new Int32Array(variants * FIGURE_SLOTS)
  for (let v = 0; v < variants; v++) {
    let sum = 0
    for (let slot = JUDGED + 1; slot <= FIGURE_SLOTS; slot++) sum += tally[v * width + slot]!
    counts[v * FIGURE_SLOTS + JUDGED] = sum
    for (let slot = JUDGED + 1; slot < FIGURE_SLOTS; slot++)
      counts[v * FIGURE_SLOTS + slot] = tally[v * width + slot]!
  }
  return {
    counts,
    binary: matrix(binary, 2),
    full: matrix(full, labels),
    correct: { judged, right },
    touched,
  }
}

const matrix = (cells: Int32Array, k: number): number[][] =>
  Array.from({ length: k }, (_, g) => Array.from(cells.subarray(g * k, (g + 1) * k)))
