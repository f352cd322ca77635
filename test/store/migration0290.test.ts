import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { resolveGold } from '../../src/main/labels/gold'
import { LabelWriter } from '../../src/main/labels/labels'
import { LATEST_VERSION, schemaVersion } from '../../src/main/store/connection'
import { tmpDirs } from '../helpers/tmp'
import { fixture } from '../import/helpers'

const tmp = tmpDirs()

/**
 * A workspace as a SummEval import from before migration 0290 left it: each summary's five crowd
 * ratings as labels of five sources "SummEval crowd 1..5", and the default gold rule. Made by
 * importing with today's code, then adding those sources' labels from the ratings the summaries
 * keep, and the schema back to 0280 (0290 changes data only).
 */
async function olderSummevalWorkspace(dropMetadataOf?: string): Promise<string> {
  const file = `${tmp()}/w.factlab`
  const ws = Workspace.open(file)
  const r = await importFile(ws, { file: fixture('summeval.jsonl'), datasetName: 'se' })
  const db = ws.db
  db.prepare(`UPDATE datasets SET settings = json_remove(settings, '$.goldRule') WHERE id = ?`).run(
    r.datasetId,
  )
  const writer = new LabelWriter(db)
  const targets = db
    .prepare('SELECT t.id, c.metadata, c.variant FROM targets t JOIN candidates c ON c.id = t.candidate_id')
    .all() as { id: number; metadata: string; variant: string }[]
  for (const t of targets) {
    const crowd = JSON.parse(t.metadata).turker_annotations as { consistency: number }[]
    crowd.forEach((a, i) => {
      const name = `SummEval crowd ${i + 1}`
      db.prepare(
        "INSERT OR IGNORE INTO annotators (name, created_at, kind) VALUES (?, '2025-01-01', 'source')",
      ).run(name)
      const id = db.prepare('SELECT id FROM annotators WHERE name = ?').pluck().get(name) as number
      writer.save({ targetId: t.id, annotatorId: id, verdict: String(a.consistency) })
    })
  }
  if (dropMetadataOf)
    db.prepare("UPDATE candidates SET metadata = '{}' WHERE variant = ?").run(dropMetadataOf)
  db.pragma('user_version = 280')
  ws.close()
  return file
}

const crowdLabels = (ws: Workspace) =>
  ws.db
    .prepare(
      "SELECT COUNT(*) FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE a.name LIKE 'SummEval crowd %'",
    )
    .pluck()
    .get()

describe('migration 0290: SummEval crowd ratings stop being five raters', () => {
  it('drops the crowd sources’ current labels kept on the summaries, leaving the experts and the history', async () => {
    const file = await olderSummevalWorkspace()
    const ws = Workspace.open(file)
    try {
      expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
      expect(crowdLabels(ws)).toBe(0)
      expect(ws.db.prepare('SELECT COUNT(*) FROM labels').pluck().get()).toBe(9)
      // Every crowd rating is still in the history and on its summary.
      const history = ws.db
        .prepare(
          "SELECT COUNT(*) FROM label_history h JOIN annotators a ON a.id = h.annotator_id WHERE a.name LIKE 'SummEval crowd %'",
        )
        .pluck()
        .get()
      expect(history).toBe(15)
      // The gold is the experts' again: doc-a / M2 is 2 (experts 2, 1, 2), where the crowd's 3s tied it.
      expect([...resolveGold(ws.db, 1).values()].map((g) => g.verdict).sort()).toEqual(['2', '5', '5'])
    } finally {
      ws.close()
    }
  })

  it('keeps the crowd labels of a summary whose metadata no longer holds the ratings', async () => {
    const file = await olderSummevalWorkspace('M2')
    const ws = Workspace.open(file)
    try {
      expect(crowdLabels(ws)).toBe(5)
    } finally {
      ws.close()
    }
  })
})
