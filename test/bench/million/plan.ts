/**
 * The million-target workspace under an annotation plan, for the Project view: overlap k = 2
 * over its 5 annotators with a fixed assignment (200k assignment rows), controls on 1% of the
 * targets (control rate 1%), hourly rates, a third person's label on about 1% of the targets
 * (labels past k, which the dashboard's "past k" query finds) and some adjudicated gold. Made on
 * the bench's own copy of the cached file rather than cached itself: the copy is 800 MB, and a
 * second cached file would take that much more of a shared disk.
 */
import { readLabelBlocks } from '../../../src/main/labels/blocks'
import { readTargetBlocks } from '../../../src/main/metrics/targetBlocks'
import { setControls } from '../../../src/main/projects/controls'
import { setPlan } from '../../../src/main/projects/plan'
import { openWorkspace } from '../../../src/main/store/connection'
import { ANNOTATORS } from './generate'

/** Puts the plan on a copy of the million-target workspace; says how many controls and targets past k it made. */
export function addPlan(file: string, ds: number, annotators: number): { controls: number; pastK: number } {
  const db = openWorkspace(file, { skipQuickCheck: true })
  try {
    const names = ANNOTATORS(annotators)
    setPlan(db, {
      datasetId: ds,
      k: 2,
      policy: 'fixed',
      seed: 7,
      controlRate: 0.01,
      hourlyRate: 30,
      annotators: names.map((name, i) => ({ name, hourlyRate: i === 0 ? 45 : null })),
    })
    // Every hundredth target a control, its answer the verdict of its first label where it has one.
    const answers = db
      .prepare(
        `SELECT t.id AS targetId, COALESCE((SELECT l.verdict FROM labels l WHERE l.target_id = t.id
           AND l.verdict IS NOT NULL ORDER BY l.id LIMIT 1), 'true') AS verdict
         FROM targets t WHERE t.dataset_id = ? AND t.id % 100 = 37`,
      )
      .all(ds) as { targetId: number; verdict: string }[]
    setControls(db, ds, { fromGold: [], answers }, '2026-01-04T00:00:00.000Z')
    const ids = db.prepare('SELECT id FROM annotators WHERE name = ?').pluck()
    const a = names.map((n) => ids.get(n) as number)
    db.transaction(() => {
      // A third person (a + 2) on about 1% of the labelled targets, a week after the first two.
      db.exec(`
        INSERT INTO labels (target_id, annotator_id, verdict, created_at, updated_at, seconds)
          SELECT t.id, CASE (t.id + 2) % ${a.length} ${a.map((id, k) => `WHEN ${k} THEN ${id}`).join(' ')} END,
            CASE WHEN t.id % 3 = 0 THEN 'false' ELSE 'true' END,
            '2026-01-10T12:00:00.000Z', '2026-01-10T12:00:00.000Z', 6
          FROM targets t WHERE t.dataset_id = ${ds} AND t.id % 97 = 5 AND (t.id * 7919) % 10 <> 0`)
      // Adjudicated gold on about one target in 500, as after a lead's first pass over disputes.
      db.exec(`
        INSERT INTO gold (target_id, verdict, source, adjudicator_id, updated_at)
          SELECT t.id, CASE WHEN t.id % 2 = 0 THEN 'true' ELSE 'false' END, 'adjudicated', ${a[0]},
            '2026-01-11T00:00:00.000Z'
          FROM targets t WHERE t.dataset_id = ${ds} AND t.id % 500 = 11 AND (t.id * 7919) % 10 <> 0`)
    })()
    // The blocks the changes above dropped, stored again as a first look at any view would.
    const span = db
      .prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM targets WHERE dataset_id = ?')
      .get(ds) as { lo: number; hi: number }
    readLabelBlocks(db, span.lo, span.hi)
    readTargetBlocks(db, ds)
    db.pragma('wal_checkpoint(TRUNCATE)')
    const count = (sql: string) => db.prepare(sql).pluck().get(ds) as number
    return {
      controls: count('SELECT COUNT(*) FROM controls WHERE dataset_id = ?'),
      pastK: count('SELECT COUNT(*) FROM targets WHERE dataset_id = ? AND labels_n > 2'),
    }
  } finally {
    db.close()
  }
}
