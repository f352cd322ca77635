import { describe, expect, it } from 'vitest'
import { openAnnotateView } from '../../src/main/annotate/view'
import { setControls } from '../../src/main/projects/controls'
import { assignedItems, setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from '../projects/seed'

const tmp = tmpDirs()

describe('Annotate under a fixed plan', () => {
  it("opens on the annotator's first assigned item with work left, not on a control in someone else's item", () => {
    const p = seedProject(tmp(), { items: 6, variants: 1, facts: 2, annotators: 2 })
    const [ana] = p.people
    const plan = { datasetId: p.ds.id, k: 1, policy: 'fixed' as const, seed: 7, controlRate: 1 }
    setPlan(p.ws.db, { ...plan, annotators: p.people.map((a) => ({ name: a.name })) })
    const mine = new Set(assignedItems(p.ws.db, p.ds.id, ana!.id))
    const itemOf = (targetId: number) =>
      (p.ws.db.prepare('SELECT item_id AS i FROM targets WHERE id = ?').get(targetId) as { i: number }).i
    const position = (itemId: number) =>
      (p.ws.db.prepare('SELECT position AS n FROM items WHERE id = ?').get(itemId) as { n: number }).n
    // The first item in reading order is not hers, and holds a control (served at rate 1).
    const others = p.targets.filter((t) => !mine.has(itemOf(t)))
    const control = others.sort((a, b) => position(itemOf(a)) - position(itemOf(b)))[0]!
    setControls(p.ws.db, p.ds.id, { fromGold: [], answers: [{ targetId: control, verdict: 'true' }] }, 'now')
    const mineInOrder = [...mine].sort((a, b) => position(a) - position(b))
    const open = () => openAnnotateView(p.ws.db, { datasetId: p.ds.id, annotatorId: ana!.id, blind: false })
    expect(open().item.id).toBe(mineInOrder[0])
    // Her first item done, the view opens on her next one.
    for (const t of open().targets)
      p.ws.labels.save({ targetId: t.targetId, annotatorId: ana!.id, verdict: 'true' })
    expect(open().item.id).toBe(mineInOrder[1])
    // All her work done: still one of her items, never someone else's.
    for (const t of p.targets.filter((x) => mine.has(itemOf(x))))
      p.ws.labels.save({ targetId: t, annotatorId: ana!.id, verdict: 'true' })
    expect(open().item.id).toBe(mineInOrder[0])
    p.ws.close()
  })
})
