import { describe, expect, it } from 'vitest'
import { nextTarget, openAnnotateView } from '../../src/main/annotate/view'
import { setControls } from '../../src/main/projects/controls'
import { setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

/*
 * A control is mixed into a queue unmarked (design: "Control item"), so under an open plan it is
 * served as ordinary work is: until k people hold a label on it, and no further.
 */
describe('controls under an open plan', () => {
  it('stop being served once k people labelled them, like the targets beside them', () => {
    const dir = tmp()
    const { ws, ds, people, targets } = seedProject(dir, { items: 2, variants: 1, facts: 2, annotators: 3 })
    const [ana, ben, cai] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]]
    setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'open', controlRate: 1, annotators: [] })
    const control = targets[0]!
    setControls(ws.db, ds.id, { fromGold: [], answers: [{ targetId: control, verdict: 'true' }] }, 'now')

    const labelAllServed = (annotatorId: number): number[] => {
      const served: number[] = []
      for (let guard = 0; guard < 50; guard++) {
        const { targetId } = nextTarget(ws.db, { datasetId: ds.id, annotatorId })
        if (targetId === null) break
        served.push(targetId)
        ws.labels.save({ targetId, annotatorId, verdict: 'true' })
      }
      return served
    }
    // The first two people meet the control (it comes first at rate 1) and every target.
    expect(labelAllServed(ana.id).sort()).toEqual([...targets].sort())
    expect(labelAllServed(ben.id)[0]).toBe(control)

    // Every target, the control among them, now holds k = 2 labels: the third person is served nothing.
    expect(nextTarget(ws.db, { datasetId: ds.id, annotatorId: cai.id }).targetId).toBeNull()

    // Opened by hand, the control's item shows it settled like the unit beside it.
    const itemOf = ws.db.prepare('SELECT item_id FROM targets WHERE id = ?').pluck().get(control) as number
    const view = openAnnotateView(ws.db, {
      datasetId: ds.id,
      annotatorId: cai.id,
      itemId: itemOf,
      blind: true,
    })
    expect(view.targets.map((t) => t.settled)).toEqual(view.targets.map(() => true))
    expect(view.targets.map((t) => t.targetId)).toContain(control)
    ws.close()
  })

  it('is still served to the next person while it has fewer than k labels', () => {
    const dir = tmp()
    const { ws, ds, people, targets } = seedProject(dir, { items: 2, variants: 1, facts: 2, annotators: 3 })
    setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'open', controlRate: 1, annotators: [] })
    const control = targets[3]!
    setControls(ws.db, ds.id, { fromGold: [], answers: [{ targetId: control, verdict: 'true' }] }, 'now')
    ws.labels.save({ targetId: control, annotatorId: people[0]!.id, verdict: 'true' })
    expect(nextTarget(ws.db, { datasetId: ds.id, annotatorId: people[1]!.id }).targetId).toBe(control)
    ws.close()
  })
})
