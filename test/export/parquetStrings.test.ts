import fc from 'fast-check'
import { ByteWriter, type ColumnSource, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer'
import { describe, expect, it } from 'vitest'
import { utf8Column } from '../../src/main/export/parquetStrings'
import type { Cell } from '../../src/main/export/targetColumns'

/** A file of the row groups, each column handed to the writer as given. */
function fileOf(groups: ColumnSource[][]): Buffer {
  const writer = new ByteWriter()
  const pq = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData: groups[0]! }),
    createdBy: 'FactLab',
  })
  for (const g of groups) pq.write({ columnData: g, rowGroupSize: g[0]!.data.length })
  pq.finish()
  return Buffer.from(writer.getBytes())
}

// Texts that repeat (an item's reference on each target), differ only past the first
// characters, leave the BMP, use characters above the surrogates (ordered after astral ones in
// UTF-8 but before them in UTF-16), carry lone surrogates, or are empty.
const Text = fc.oneof(
  fc.constantFrom('', 'a', 'true', 'false', 'Reference of item 1', 'Reference of item 2', 'é', 'ß€'),
  fc.constantFrom('\u{1F600} smile', '\uFFFD', '\uE000 private', 'x\uD800y', 'x\uDC00y', '\uD83D'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
)

const Column = fc.oneof(
  // Few distinct values, many rows: the writer keeps a dictionary.
  fc.array(fc.option(fc.constantFrom('true', 'false', 'not_clear', 'é'), { freq: 4 }), {
    minLength: 0,
    maxLength: 1500,
  }),
  // Runs of one value, as an item's texts come.
  fc
    .array(fc.tuple(fc.option(Text, { freq: 5 }), fc.integer({ min: 1, max: 40 })), { maxLength: 80 })
    .map((runs) => runs.flatMap(([v, k]) => Array.from({ length: k }, () => v))),
  fc.array(fc.option(Text, { freq: 3 }), { maxLength: 60 }),
)

describe('string columns handed to the Parquet writer as UTF-8 bytes', () => {
  it('give the file the writer makes of the strings themselves, byte for byte', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(Column, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        (plan) => {
          // Every row group holds as many columns as the first, each cut to one length.
          const width = plan[0]!.length
          const groups = plan.map((cols) => {
            const n = Math.min(...cols.map((c) => c.length))
            return Array.from({ length: width }, (_, c) => (cols[c % cols.length] ?? []).slice(0, n))
          })
          const spec = (c: number) => ({ name: `s${c}`, type: 'STRING' as const, nullable: true })
          const strings = groups.map((cols) => cols.map((data, c): ColumnSource => ({ ...spec(c), data })))
          const bytes = groups.map((cols) =>
            cols.map((data, c): ColumnSource => {
              const u = utf8Column(data as Cell[])
              return u ? { ...spec(c), ...u } : { ...spec(c), data }
            }),
          )
          expect(fileOf(bytes).equals(fileOf(strings))).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('leave a column with a lone surrogate to the writer (it would merge two such strings)', () => {
    expect(utf8Column(['x\uD800', 'x\uDC00', 'x\uD800'])).toBeNull()
    expect(utf8Column(['ok', null, '\u{1F600}'])?.data.map((b) => b && Buffer.from(b).toString())).toEqual([
      'ok',
      null,
      '\u{1F600}',
    ])
  })
})
