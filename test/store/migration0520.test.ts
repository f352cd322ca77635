import { describe, expect, it } from 'vitest'
import { readLabelBlocks } from '../../src/main/labels/blocks'
import { LabelWriter } from '../../src/main/labels/labels'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { narrowing } from '../../src/main/metrics/narrowing'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { readTargetRows, targetRowsByRow } from '../../src/main/metrics/targetRows'
import { type Db, openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()

type LabelRow = [target: number, annotator: number, verdict: string, seconds: number, at: string]

/** A label block as migration 0160 laid it out: seconds f64, time f64, annotator i32, verdict u32, offset u16. */
function oldLabelBlock(rows: LabelRow[]): { dict: string; data: Buffer } {
  const n = rows.length
  const verdicts = [...new Set(rows.map((r) => r[2]))]
  const buf = new ArrayBuffer(26 * n)
  new Float64Array(buf, 0, n).set(rows.map((r) => r[3]))
  new Float64Array(buf, 8 * n, n).set(rows.map((r) => Date.parse(r[4])))
  new Int32Array(buf, 16 * n, n).set(rows.map((r) => r[1]))
  new Uint32Array(buf, 20 * n, n).set(rows.map((r) => verdicts.indexOf(r[2])))
  new Uint16Array(buf, 24 * n, n).set(rows.map((r) => r[0] % 4096))
  return { dict: JSON.stringify({ n, verdicts, times: true }), data: Buffer.from(buf) }
}

/** A target block as migration 0160 laid it out: dataset i32, item i32, candidate i32, offset u16, flags u8. */
function oldTargetBlock(rows: [number, number, number, number, number][]): {
  datasets: string
  data: Buffer
} {
  const n = rows.length
  const buf = new ArrayBuffer(15 * n)
  new Int32Array(buf, 0, n).set(rows.map((r) => r[1]))
  new Int32Array(buf, 4 * n, n).set(rows.map((r) => r[2]))
  new Int32Array(buf, 8 * n, n).set(rows.map((r) => r[3]))
  new Uint16Array(buf, 12 * n, n).set(rows.map((r) => r[0] % 4096))
  new Uint8Array(buf, 14 * n, n).set(rows.map((r) => r[4]))
  const ids = [...new Set(rows.map((r) => r[1]))].sort((a, b) => a - b)
  return { datasets: `,${ids.join(',')},`, data: Buffer.from(buf) }
}

const views = (db: Db, datasetId: number) => ({
  metrics: computeDatasetMetrics(db, datasetId, { replicates: 20 }),
  agreement: datasetAgreement(db, datasetId),
  narrowing: narrowing(db, datasetId),
})

describe('migration 0520: narrower view blocks', () => {
  it('splits the blocks stored before it in place: the same labels, seconds, times, targets and figures', () => {
    const fx = makeFixture(tmp(), { items: 3, variants: ['poor_answer', 'answer'], facts: 2 })
    const db = fx.db
    // Another dataset's targets in the first block (a block of two datasets) and alone in a later one.
    const other = createDataset(db, { name: 'other', labelSchema: FAAF_SCHEMA }).id
    const content = new ContentWriter(db)
    for (const n of [0, 1]) {
      const item = content.insertItem(other, { extId: `o${n}`, question: 'Q?', reference: 'R.' }, 10 + n)
      content.insertCandidate(item, { variant: 'answer', text: 'C.' })
      content.insertUnit(item, { kind: 'fact', text: 'F.' })
    }
    const last = db.prepare('SELECT MAX(id) FROM targets').pluck().get() as number
    db.prepare('UPDATE targets SET id = ? WHERE id = ?').run(last + 5000, last)
    const writer = new LabelWriter(db)
    const ids = db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
    ids.forEach((targetId, i) => {
      for (const who of ['ana', 'bob', 'cy'].slice(0, 1 + (i % 3)))
        writer.save({
          targetId,
          annotatorId: ensureAnnotator(db, who).id,
          verdict: (i + who.length) % 3 === 0 ? 'false' : 'true',
          seconds: 1.5 + i,
        })
    })
    const expected = { demo: views(db, fx.datasetId), other: views(db, other) }
    // The workspace as it stood before migration 0520, its blocks stored in the old layouts.
    db.exec(`DROP TABLE label_block_extras; DELETE FROM label_blocks; DELETE FROM target_blocks;
      PRAGMA user_version = 450`)
    const blocks = [...new Set(ids.map((id) => Math.floor(id / 4096)))]
    for (const b of blocks) {
      const range = [b * 4096, b * 4096 + 4095]
      const labels = db
        .prepare(
          `SELECT target_id, annotator_id, verdict, seconds, updated_at FROM labels
           WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL ORDER BY target_id, annotator_id`,
        )
        .raw()
        .all(...range) as LabelRow[]
      const l = oldLabelBlock(labels)
      db.prepare('INSERT INTO label_blocks (block, dict, data) VALUES (?, ?, ?)').run(b, l.dict, l.data)
      const targets = db
        .prepare(
          `SELECT t.id, t.dataset_id, t.item_id, t.candidate_id, 1 FROM targets t
           WHERE t.id BETWEEN ? AND ? ORDER BY t.id`,
        )
        .raw()
        .all(...range) as [number, number, number, number, number][]
      const t = oldTargetBlock(targets)
      db.prepare('INSERT INTO target_blocks (block, datasets, data) VALUES (?, ?, ?)').run(
        b,
        t.datasets,
        t.data,
      )
    }
    expect(db.prepare(`SELECT COUNT(*) FROM target_blocks WHERE datasets LIKE ',%,%,'`).pluck().get()).toBe(1)
    const file = db.name
    db.close()

    const upgraded = openWorkspace(file, { skipQuickCheck: true })
    const stored = () => upgraded.prepare('SELECT COUNT(*) FROM label_blocks').pluck().get()
    expect(stored()).toBe(blocks.length)
    const [lo, hi] = [ids[0]!, ids[ids.length - 1]!]
    const b = readLabelBlocks(upgraded, lo, hi)!
    const rows = upgraded
      .prepare(
        `SELECT target_id, annotator_id, verdict, seconds, updated_at FROM labels
         WHERE verdict IS NOT NULL ORDER BY target_id, annotator_id`,
      )
      .raw()
      .all() as LabelRow[]
    expect(
      Array.from(b.target, (t, p) => [
        t,
        b.annotator[p],
        b.verdicts[b.verdict[p]!],
        b.seconds[p],
        b.time![p],
      ]),
    ).toEqual(rows.map(([t, a, v, s, at]) => [t, a, v, s, Date.parse(at)]))
    for (const datasetId of [fx.datasetId, other])
      for (const controls of [false, true])
        expect(readTargetRows(upgraded, datasetId, controls)).toEqual(
          targetRowsByRow(upgraded, datasetId, controls),
        )
    // Read from the split blocks, not rebuilt: the figures the rows gave.
    expect({ demo: views(upgraded, fx.datasetId), other: views(upgraded, other) }).toEqual(expected)
    expect(stored()).toBe(blocks.length)
    // Run again (a workspace set back a version): blocks already split are left as they are.
    upgraded.pragma('user_version = 510')
    upgraded.close()
    const again = openWorkspace(file, { skipQuickCheck: true })
    expect({ demo: views(again, fx.datasetId), other: views(again, other) }).toEqual(expected)
    for (const datasetId of [fx.datasetId, other])
      expect(readTargetRows(again, datasetId, true)).toEqual(targetRowsByRow(again, datasetId, true))
    expect(again.prepare('SELECT COUNT(*) FROM label_blocks').pluck().get()).toBe(blocks.length)
    again.close()
  })
})
