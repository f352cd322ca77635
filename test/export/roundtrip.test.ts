import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { exportDataset } from '../../src/main/export'
import { importFile } from '../../src/main/import'
import type { Db } from '../../src/main/store/connection'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, writeReleaseCsv, wsFile } from './seed'

const tmp = tmpDirs()

/** Facts per question, and "question | variant | fact → verdict" for one annotator's labels. */
function snapshot(db: Db, datasetId: number, annotator: string) {
  const facts = db
    .prepare(
      `SELECT i.question AS q, u.text AS f FROM units u JOIN items i ON i.id = u.item_id
       WHERE i.dataset_id = ? AND u.kind = 'fact' AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       ORDER BY i.position, u.position`,
    )
    .all(datasetId) as { q: string; f: string }[]
  const labels = db
    .prepare(
      `SELECT i.question AS q, c.variant AS v, u.text AS f, l.verdict AS verdict FROM labels l
       JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND a.name = ? AND l.verdict IS NOT NULL`,
    )
    .all(datasetId, annotator) as { q: string; v: string; f: string; verdict: string }[]
  return {
    facts: facts.map((r) => `${r.q} | ${r.f.replace(/\s*\n\s*/g, ' ')}`),
    labels: labels.map((r) => `${r.q} | ${r.v} | ${r.f.replace(/\s*\n\s*/g, ' ')} → ${r.verdict}`).sort(),
  }
}

describe('WikiEvalFacts export → import round trip', () => {
  for (const format of ['wikievalfacts-csv', 'wikievalfacts-jsonl'] as const) {
    it(`gives back the same facts and labels (${format}, one annotator's labels)`, async () => {
      const dir = tmp()
      const { ws, ds } = seedWorkspace(wsFile(dir))
      const { files } = await exportDataset(ws, {
        datasetId: ds.id,
        format,
        outDir: join(dir, 'out'),
        annotator: 'Ben',
      })
      const fresh = Workspace.open(wsFile(dir, 'fresh.factlab'))
      const report = await importFile(fresh, {
        file: files[0]!,
        preset: 'wikievalfacts',
        datasetName: 'back',
      })
      const before = snapshot(ws.db, ds.id, 'Ben')
      const after = snapshot(fresh.db, report.datasetId, 'wikievalfacts')
      expect(after.facts).toEqual(before.facts)
      expect(after.labels).toEqual(before.labels)
      expect(after.labels.some((l) => l.endsWith('→ not_clear'))).toBe(true)
      ws.close()
      fresh.close()
    })
  }

  it('imported release file → export → import gives the same facts and labels', async () => {
    const dir = tmp()
    const fixture = join(__dirname, '../fixtures/import/wikievalfacts.csv')
    const source = existsSync(fixture) ? fixture : join(dir, 'release.csv')
    if (source !== fixture) writeReleaseCsv(source)
    const a = Workspace.open(wsFile(dir, 'a.factlab'))
    const first = await importFile(a, { file: source, preset: 'wikievalfacts', datasetName: 'wef' })
    const { files } = await exportDataset(a, {
      datasetId: first.datasetId,
      format: 'wikievalfacts-csv',
      outDir: dir,
    })
    const b = Workspace.open(wsFile(dir, 'b.factlab'))
    const second = await importFile(b, { file: files[0]!, preset: 'wikievalfacts', datasetName: 'wef' })
    expect(second.items).toBe(first.items)
    const before = snapshot(a.db, first.datasetId, 'wikievalfacts')
    const after = snapshot(b.db, second.datasetId, 'wikievalfacts')
    expect(before.labels.length).toBeGreaterThan(0)
    expect(after).toEqual(before)
    a.close()
    b.close()
  })
})
