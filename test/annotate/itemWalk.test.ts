import { describe, expect, it } from 'vitest'
import { openAnnotateView } from '../../src/main/annotate/view'
import { assignedItems, setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from '../projects/seed'

const tmp = tmpDirs()

describe("The Annotate view's position under a fixed split", () => {
  it('counts the items the person is given and steps between them, not the whole dataset', () => {
    const p = seedProject(tmp(), { items: 8, variants: 1, facts: 1, annotators: 2 })
    const [ana] = p.people
    const plan = { datasetId: p.ds.id, k: 1, policy: 'fixed' as const, seed: 7, controlRate: 0 }
    const open = (itemId?: number) =>
      openAnnotateView(p.ws.db, { datasetId: p.ds.id, annotatorId: ana!.id, itemId, blind: false })
    const all = open()
    expect([all.itemCount, all.walk]).toEqual([8, 'dataset'])

    setPlan(p.ws.db, { ...plan, annotators: p.people.map((a) => ({ name: a.name })) })
    const position = (itemId: number) =>
      (p.ws.db.prepare('SELECT position AS n FROM items WHERE id = ?').get(itemId) as { n: number }).n
    const mine = assignedItems(p.ws.db, p.ds.id, ana!.id).sort((a, b) => position(a) - position(b))
    expect(mine.length).toBeGreaterThan(1)
    expect(mine.length).toBeLessThan(8)
    const walked = mine.map((id) => open(id))
    expect(walked.map((v) => [v.itemIndex, v.itemCount, v.walk])).toEqual(
      mine.map((_, i) => [i, mine.length, 'share']),
    )
    expect(walked.map((v) => v.nextItemId)).toEqual([...mine.slice(1), null])
    expect(walked.map((v) => v.prevItemId)).toEqual([null, ...mine.slice(0, -1)])

    // An item outside her share, opened by hand, keeps its place in the dataset.
    const items = p.ws.db.prepare('SELECT id FROM items WHERE dataset_id = ?').all(p.ds.id) as {
      id: number
    }[]
    const other = items.map((i) => i.id).find((id) => !mine.includes(id))!
    const outside = open(other)
    expect([outside.itemIndex, outside.itemCount, outside.walk]).toEqual([position(other), 8, 'dataset'])
    p.ws.close()
  })
})
