import { join } from 'node:path'
import { AppContext } from '../../src/main/app/context'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'

/**
 * A small FaaF dataset: 3 items × 2 variants × 2 facts (12 targets), two annotators, and one
 * judge run, built through the same writers the importer uses.
 */
export function seedWorkspace(dir: string) {
  const ctx = new AppContext(freshWorkspaceFile(join(dir, 'w.factlab')), { driver: 'browser' })
  const ws = ctx.workspace
  const ds = createDataset(ws.db, { name: 'wiki', labelSchema: FAAF_SCHEMA })
  const ana = ensureAnnotator(ws.db, 'ana')
  const ben = ensureAnnotator(ws.db, 'ben')
  const items: { itemId: number; targets: Record<string, number[]> }[] = []
  for (let i = 0; i < 3; i++) {
    const itemId = ws.content.insertItem(
      ds.id,
      {
        extId: `q${i}`,
        question: `Question ${i}?`,
        reference: `Reference ${i} about ${i === 2 ? 'volcanoes' : 'rivers'}.`,
      },
      i,
    )
    const answer = ws.content.insertCandidate(itemId, { variant: 'answer', text: `Answer ${i}` })
    const poor = ws.content.insertCandidate(itemId, { variant: 'poor_answer', text: `Poor ${i}` })
    const f1 = ws.content.insertUnit(itemId, { kind: 'fact', text: `Fact ${i}.1` })
    const f2 = ws.content.insertUnit(itemId, { kind: 'fact', text: `Fact ${i}.2` })
    items.push({
      itemId,
      targets: {
        answer: [ws.content.targetId(f1, answer)!, ws.content.targetId(f2, answer)!],
        poor_answer: [ws.content.targetId(f1, poor)!, ws.content.targetId(f2, poor)!],
      },
    })
  }
  const run = ws.db
    .prepare(
      `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
       VALUES ('judge', ?, 'openai', 'gpt-test', 'faaf-tf', 'done', '2026-01-01')`,
    )
    .run(ds.id)
  const addVerdict = (targetId: number, verdict: string) =>
    ws.db
      .prepare(
        `INSERT INTO verdicts (run_id, target_id, status, verdict, reason, citation) VALUES (?, ?, 'ok', ?, 'because', 'cited text')`,
      )
      .run(run.lastInsertRowid, targetId, verdict)
  return { ctx, ws, ds, ana, ben, items, addVerdict }
}
