import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LabelRowsColumns } from '../../src/main/labels/blocks'
import { columnsOfBlocks } from '../../src/main/labels/columns'
import { buildLabelColumns } from '../../src/main/metrics/stats/labelColumns'

const LABELS = ['true', 'false', 'not_clear']
// 'off' is a stored verdict outside the schema: not a verdict, left out.
const VERDICTS = ['false', 'off', 'true', 'not_clear']

function blocksOf(rows: [number, number, number][]): LabelRowsColumns {
  return {
    target: Int32Array.from(rows, (r) => r[0]),
    annotator: Int32Array.from(rows, (r) => r[1]),
    verdict: Int32Array.from(rows, (r) => r[2]),
    verdicts: VERDICTS,
    seconds: new Float64Array(rows.length),
    time: null,
  }
}

describe('label columns from the blocks', () => {
  it('are the counting sort of the rows, in target order or not', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.nat(15), fc.integer({ min: 3, max: 7 }), fc.nat(VERDICTS.length - 1)), {
          selector: ([t, a]) => `${t}:${a}`,
          maxLength: 60,
        }),
        // Targets of the dataset (the rest belong to another one), and whether the rows come sorted.
        fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
        fc.boolean(),
        (rows, mine, sorted) => {
          const ordered = sorted ? [...rows].sort((x, y) => x[0] - y[0] || x[1] - y[1]) : rows
          // indexOf covers ids 0 … 13: ids 14 and 15 lie past it, as another dataset's may.
          const indexOf = new Int32Array(14).fill(-1)
          let targets = 0
          mine.forEach((m, id) => {
            if (m) indexOf[id] = targets++
          })
          const want = buildLabelColumns(
            targets,
            ordered.filter((r) => LABELS.includes(VERDICTS[r[2]]!)).map(([t, a, v]) => [t, a, VERDICTS[v]!]),
            indexOf,
            LABELS,
          )
          expect(columnsOfBlocks(blocksOf(ordered), LABELS, indexOf, targets)).toEqual(want)
        },
      ),
      { seed: 5, numRuns: 400 },
    )
  })
})
