import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'

/** A FaaF dataset of `items` items × `variants` candidates × `facts` facts, and named annotators. */
export function seedProject(
  dir: string,
  shape: { items: number; variants: number; facts: number; annotators: number },
  name = 'wiki',
  /** Runs on the new workspace before the dataset is made (another dataset first, say). */
  before?: (ws: Workspace) => void,
) {
  const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
  // Hundreds of small workspaces: durability is not what these tests are about.
  ws.db.pragma('synchronous = OFF')
  before?.(ws)
  const ds = createDataset(ws.db, { name, labelSchema: FAAF_SCHEMA })
  const targets: number[] = []
  for (let i = 0; i < shape.items; i++) {
    const itemId = ws.content.insertItem(
      ds.id,
      { extId: `q${i}`, question: `Q${i}?`, reference: `Ref ${i}.` },
      i,
    )
    const cands = Array.from({ length: shape.variants }, (_, v) =>
      ws.content.insertCandidate(itemId, { variant: `v${v}`, text: `Answer ${i}.${v}` }),
    )
    for (let f = 0; f < shape.facts; f++) {
      const unit = ws.content.insertUnit(itemId, { kind: 'fact', text: `Fact ${i}.${f}` })
      for (const c of cands) targets.push(ws.content.targetId(unit, c)!)
    }
  }
  const people = Array.from({ length: shape.annotators }, (_, a) => ensureAnnotator(ws.db, `ann${a}`))
  return { ws, ds, targets, people }
}

/** Distinct annotators holding a verdict, per target, counted from the labels themselves. */
export function labelCounts(ws: Workspace, datasetId: number): Map<number, number> {
  const rows = ws.db
    .prepare(
      `SELECT t.id, COUNT(l.id) AS n FROM targets t LEFT JOIN labels l ON l.target_id = t.id AND l.verdict IS NOT NULL
       WHERE t.dataset_id = ? GROUP BY t.id`,
    )
    .all(datasetId) as { id: number; n: number }[]
  return new Map(rows.map((r) => [r.id, r.n]))
}
