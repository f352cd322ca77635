import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

describe("a work package and its annotator's earlier labels", () => {
  it('carries her own labels (not anyone else’s), so her laptop shows them done and the merge back changes nothing', async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 1, variants: 1, facts: 3, annotators: 2 })
    setPlan(lead.ws.db, {
      datasetId: lead.ds.id,
      k: 2,
      policy: 'open',
      annotators: [{ name: 'ann0' }, { name: 'ann1' }],
    })
    const [t1, t2, t3] = lead.targets
    const [ann0, ann1] = lead.people
    // At the lead's, ann0 labelled two targets; ann1 labelled the third.
    lead.ws.labels.save({ targetId: t1!, annotatorId: ann0!.id, verdict: 'true', note: 'checked twice' })
    lead.ws.labels.save({ targetId: t2!, annotatorId: ann0!.id, verdict: 'false' })
    lead.ws.labels.save({ targetId: t3!, annotatorId: ann1!.id, verdict: 'true' })
    const pkg = join(dirs.lead, 'ann0.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: pkg })

    const ws = Workspace.open(freshWorkspaceFile(join(dirs.laptop, 'w.factlab')))
    openPackage(ws, pkg)
    const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const me = ensureAnnotator(ws.db, 'ann0').id
    const onLaptop = ws.db
      .prepare(
        `SELECT a.name, u.text, l.verdict, l.note FROM labels l JOIN annotators a ON a.id = l.annotator_id
         JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id ORDER BY u.text`,
      )
      .all()
    expect(onLaptop).toEqual([
      { name: 'ann0', text: 'Fact 0.0', verdict: 'true', note: 'checked twice' },
      { name: 'ann0', text: 'Fact 0.1', verdict: 'false', note: null },
    ])
    // Her queue offers only the target she has not labelled.
    const next = nextTarget(ws.db, { datasetId: ds, annotatorId: me })
    const unitOf = (id: number | null) =>
      ws.db
        .prepare('SELECT u.text FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.id = ?')
        .pluck()
        .get(id)
    expect(unitOf(next.targetId)).toBe('Fact 0.2')

    const bundle = join(dirs.laptop, 'b.jsonl')
    await exportBundle(ws, { datasetId: ds, annotatorId: me, out: bundle })
    ws.close()
    const report = await mergeBundle(lead.ws, bundle)
    expect(report).toMatchObject({ added: 0, updated: 0, unchanged: 2 })
    lead.ws.close()
  })

  it('keeps apart two units worded alike in one item: each gets its own label on her laptop', async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 1, variants: 1, facts: 1, annotators: 1 })
    // Two facts of item q0 read the same (a list that repeats a claim), after the seeded one.
    const item = lead.ws.db.prepare("SELECT id FROM items WHERE ext_id = 'q0'").pluck().get() as number
    const cand = lead.ws.db.prepare('SELECT id FROM candidates WHERE item_id = ?').pluck().get(item) as number
    const twins = [0, 1].map(
      (i) =>
        lead.ws.content.targetId(
          lead.ws.content.insertUnit(item, { kind: 'fact', text: 'Same words.', position: 5 + i }),
          cand,
        )!,
    )
    const [ann0] = lead.people
    lead.ws.labels.save({ targetId: twins[0]!, annotatorId: ann0!.id, verdict: 'true', note: 'first' })
    lead.ws.labels.save({ targetId: twins[1]!, annotatorId: ann0!.id, verdict: 'false', note: 'second' })
    const pkg = join(dirs.lead, 'ann0.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: pkg })
    lead.ws.close()

    const ws = Workspace.open(join(dirs.laptop, 'w.factlab'))
    openPackage(ws, pkg)
    const onLaptop = ws.db
      .prepare(
        `SELECT u.position, l.verdict, l.note FROM labels l JOIN targets t ON t.id = l.target_id
         JOIN units u ON u.id = t.unit_id WHERE u.text = 'Same words.' ORDER BY u.position`,
      )
      .all()
    expect(onLaptop).toEqual([
      { position: 5, verdict: 'true', note: 'first' },
      { position: 6, verdict: 'false', note: 'second' },
    ])
    ws.close()
  })
})
