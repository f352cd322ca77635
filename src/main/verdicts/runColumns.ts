import { noteCodeNumbers, noteSpanColumns, type RunColumns, type SpanColumns } from '../metrics/load'
import { sharedInt8, sharedUint8 } from '../metrics/sharedColumns'
import { NONE } from '../metrics/stats/binary'

/**
 * A judge run's columns as the loader hands them out: empty, or read over the span of targets it
 * reached. Their numeric column is made from the label codes when first asked for (`labelNum`,
 * the number of each label, given when verdicts are read as label codes): most runs' never is,
 * and twenty runs over a million targets would otherwise fill 160 MB of NaN.
 */

/** A run with nothing read yet; the loader's passes write into its columns. */
export function emptyRun(n: number, labelNum?: Float64Array, labels = 0): RunColumns {
  const { bin, code, status } = emptyColumns(n, labels)
  let num: Float64Array | null = null
  return {
    bin,
    code,
    status,
    // The pass that reads explicit scores writes here first, which makes it.
    get num(): Float64Array {
      num ??= numbersOf(n, code, 0, labelNum)
      return num
    },
    hasScores: false,
  }
}

/**
 * Columns of n targets holding no verdict. `shared`: the statuses and verdicts on shared memory,
 * as a run's span columns are made, so the Compare view's worker is handed them without a copy
 * (sharedColumns.ts; two bytes a target of every run's span, 4 MB at the bench's twenty runs).
 */
export function emptyColumns(
  n: number,
  labels: number,
  shared = false,
): Pick<SpanColumns, 'bin' | 'code' | 'status'> {
  // A code is a label's index or −1: a byte holds it for up to 127 labels, which halves what
  // twenty runs over a million targets fill.
  const code = labels <= 127 ? new Int8Array(n).fill(-1) : new Int16Array(n).fill(-1)
  return {
    bin: (shared ? sharedInt8(n) : new Int8Array(n)).fill(NONE),
    code,
    status: shared ? sharedUint8(n) : new Uint8Array(n),
  }
}

/**
 * A run read as label codes over its span alone (`span`), as emptyRun's run would hold it once
 * the same verdicts were written into it. The counting passes read the span (runSpanColumns);
 * its full-length columns are made on first use, which the Compare view's passes never make:
 * twenty runs that reached a tenth of a million targets no longer fill sixty million bytes each
 * time the view is opened cold.
 */
export function spanRun(
  n: number,
  span: SpanColumns,
  labelNum: Float64Array | undefined,
  labels: number,
): RunColumns {
  let full: Pick<SpanColumns, 'bin' | 'code' | 'status'> | null = null
  const whole = () => {
    if (full === null) {
      full = emptyColumns(n, labels)
      full.bin.set(span.bin, span.from)
      full.code.set(span.code, span.from)
      full.status.set(span.status, span.from)
    }
    return full
  }
  let num: Float64Array | null = null
  const run: RunColumns = {
    get bin() {
      return whole().bin
    },
    get code() {
      return whole().code
    },
    get status() {
      return whole().status
    },
    get num(): Float64Array {
      num ??= numbersOf(n, span.code, span.from, labelNum)
      return num
    },
    hasScores: false,
  }
  noteSpanColumns(run, span)
  noteCodeNumbers(run, labelNum)
  return run
}

/** n numbers, each the label's number where `code` (from index `from` on) holds a label, else NaN. */
function numbersOf(
  n: number,
  code: Int8Array | Int16Array,
  from: number,
  labelNum: Float64Array | undefined,
): Float64Array {
  const num = new Float64Array(n).fill(Number.NaN)
  if (labelNum)
    for (let k = 0; k < code.length; k++) {
      const c = code[k]!
      if (c >= 0) num[from + k] = labelNum[c]!
    }
  return num
}
