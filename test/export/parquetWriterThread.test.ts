import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetReadObjects } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import { writeParquet } from '../../src/main/export/dataFileWriters'
import { UNPACED } from '../../src/main/export/exportPace'
import { startBackgroundWriter } from '../../src/main/export/parquetInBackground'
import type { Cell } from '../../src/main/export/targetColumns'
import type { Feature } from '../../src/main/export/targetRows'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const features: Feature[] = [
  { name: 'item_id', dtype: 'string', description: '' },
  { name: 'reference', dtype: 'string', description: '' },
  { name: 'unit_version', dtype: 'int32', description: '' },
  { name: 'gold', dtype: 'string', description: '' },
  { name: 'notes', dtype: 'string', description: '' },
]

/** Batches as the export reads them: texts repeated along an item, few verdicts, rare notes, odd text. */
function batches(sizes: number[]): Cell[][][] {
  let row = 0
  return sizes.map((n) => {
    const cols: Cell[][] = features.map(() => [])
    for (let i = 0; i < n; i++, row++) {
      const item = Math.floor(row / 7)
      cols[0]!.push(`item-${item}`)
      cols[1]!.push(item % 5 === 0 ? `Référence ${item} \u{1F600}` : `Reference of item ${item}`)
      cols[2]!.push(row % 3 === 0 ? null : row % 4)
      cols[3]!.push(['true', 'false', null, 'not_clear'][row % 4]!)
      // A lone surrogate: the writer is handed the strings themselves for that column.
      cols[4]!.push(row === 11 ? 'x\uD800y' : row % 9 === 0 ? `{"ann":"note ${row}"}` : null)
    }
    return cols
  })
}

describe('a Parquet export written on a thread of its own', () => {
  it('writes the same file, byte for byte, as on the app thread', async () => {
    const dir = tmp()
    // The thread starts here (else the comparison below would hold trivially).
    const writer = startBackgroundWriter(join(dir, 'started.parquet'), [])
    expect(writer).not.toBeNull()
    await writer?.stop()
    for (const sizes of [[2500, 2500, 900], [1], []]) {
      const here = join(dir, `here-${sizes.length}.parquet`)
      const there = join(dir, `there-${sizes.length}.parquet`)
      const a = await writeParquet(here, features, batches(sizes), UNPACED, false)
      const b = await writeParquet(there, features, batches(sizes), UNPACED, true)
      expect(b).toEqual(a)
      expect(readFileSync(there).equals(readFileSync(here))).toBe(true)
      const buf = readFileSync(there)
      const rows = await parquetReadObjects({
        file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length),
      })
      expect(rows.length).toBe(sizes.reduce((x, y) => x + y, 0))
      if (sizes[0] === 2500) {
        expect(rows[11]).toMatchObject({ item_id: 'item-1', notes: 'x\uFFFDy', gold: 'not_clear' })
        expect(rows[5005]).toMatchObject({ reference: 'Référence 715 \u{1F600}', unit_version: 1 })
      }
    }
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([])
  })

  it('stopped midway (a cancel), leaves no file, partial or whole', async () => {
    const dir = tmp()
    const file = join(dir, 'data.parquet')
    let breaths = 0
    const cancelling = {
      breathe: async () => {
        if (++breaths === 2) throw new Error('The export was cancelled')
      },
    }
    await expect(writeParquet(file, features, batches([1000, 1000, 1000]), cancelling, true)).rejects.toThrow(
      'cancelled',
    )
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(dir)).toEqual([])
  })
})
