import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const counts = (ws: Workspace) =>
  ws.db.prepare('SELECT id, labels_n AS n FROM targets ORDER BY id').all() as { id: number; n: number }[]

/** People holding a verdict per target, counted from the labels themselves. */
const people = (ws: Workspace) =>
  ws.db
    .prepare(
      `SELECT t.id, (SELECT COUNT(*) FROM labels l JOIN annotators a ON a.id = l.annotator_id
         WHERE l.target_id = t.id AND l.verdict IS NOT NULL AND a.kind = 'person') AS n
       FROM targets t ORDER BY t.id`,
    )
    .all() as { id: number; n: number }[]

describe('migration 0260: k counts people', () => {
  it('takes a workspace made before it off the reference labels, and keeps counting people only', () => {
    const file = join(tmp(), 'lead.factlab')
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 260) })
    const before = new Workspace(file, old)
    // A dataset whose own labels came with it (a source), as WikiEvalFacts' do, and one of ana's.
    const ds = createDataset(old, { name: 'wiki', labelSchema: FAAF_SCHEMA })
    const targets: number[] = []
    for (let i = 0; i < 3; i++) {
      const item = before.content.insertItem(ds.id, { extId: `q${i}`, question: 'Q?', reference: 'R.' }, i)
      const cand = before.content.insertCandidate(item, { variant: 'answer', text: 'A.' })
      const unit = before.content.insertUnit(item, { kind: 'fact', text: `Fact ${i}.` })
      targets.push(before.content.targetId(unit, cand)!)
    }
    const source = Number(
      old
        .prepare("INSERT INTO annotators (name, created_at, kind) VALUES ('wikievalfacts', 'x', 'source')")
        .run().lastInsertRowid,
    )
    for (const t of targets) before.labels.save({ targetId: t, annotatorId: source, verdict: 'true' })
    const [first, second] = targets as [number, number]
    before.labels.save({ targetId: first, annotatorId: ensureAnnotator(old, 'ana').id, verdict: 'true' })
    // Before: the source's 3 labels and ana's one were all counted towards k.
    expect(counts(before).reduce((s, r) => s + r.n, 0)).toBe(4)
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBeGreaterThanOrEqual(260)
    expect(counts(ws)).toEqual(people(ws))
    expect(counts(ws).find((r) => r.id === first)).toEqual({ id: first, n: 1 })

    // Later writes of either kind keep it: a person's label counts, a source's does not.
    ws.labels.save({ targetId: second, annotatorId: ensureAnnotator(ws.db, 'ben').id, verdict: 'false' })
    ws.labels.save({ targetId: second, annotatorId: source, verdict: 'true' })
    ws.labels.save({ targetId: first, annotatorId: source, verdict: null })
    expect(counts(ws)).toEqual(people(ws))
    // Were a source ever made a person (or back), its labels would count (or stop counting) at once.
    ws.db.prepare("UPDATE annotators SET kind = 'person' WHERE id = ?").run(source)
    expect(counts(ws)).toEqual(people(ws))
    ws.db.prepare("UPDATE annotators SET kind = 'source' WHERE id = ?").run(source)
    expect(counts(ws)).toEqual(people(ws))
    ws.close()
  })
})
