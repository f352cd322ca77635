import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget, openAnnotateView } from '../../src/main/annotate/view'
import { setControls } from '../../src/main/projects/controls'
import { exportPackage } from '../../src/main/projects/packageExport'
import { PackageHeader } from '../../src/main/projects/packageFormat'
import { setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

describe('controls under a fixed plan', () => {
  it("are served only inside the annotator's own items, in the queue, the view and the package", () => {
    const dir = tmp()
    const { ws, ds, people } = seedProject(dir, { items: 4, variants: 1, facts: 2, annotators: 2 })
    const ana = people[0]!
    const ben = people[1]!
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 1,
      policy: 'fixed',
      controlRate: 1,
      annotators: [{ name: ana.name }, { name: ben.name }],
    })
    // An item added after the split: nobody is assigned to it.
    const late = ws.content.insertItem(ds.id, { extId: 'late', question: 'Q?', reference: 'Ref.' }, 9)
    const lateAnswer = ws.content.insertCandidate(late, { variant: 'v0', text: 'Late answer' })
    const lateUnits = [1, 2].map((f) => ws.content.insertUnit(late, { kind: 'fact', text: `Late fact ${f}` }))
    const lateTargets = lateUnits.map((u) => ws.content.targetId(u, lateAnswer)!)
    const firstTargetOf = (annotatorId: number) =>
      (
        ws.db
          .prepare(
            `SELECT MIN(t.id) AS id FROM assignments a JOIN targets t ON t.item_id = a.item_id
             WHERE a.annotator_id = ? AND a.dataset_id = ?`,
          )
          .get(annotatorId, ds.id) as { id: number }
      ).id
    const anaControl = firstTargetOf(ana.id)
    const benControl = firstTargetOf(ben.id)
    const unassignedControl = lateTargets[0]!
    setControls(
      ws.db,
      ds.id,
      {
        fromGold: [],
        answers: [anaControl, benControl, unassignedControl].map((targetId) => ({
          targetId,
          verdict: 'true',
        })),
      },
      'now',
    )

    // Her package, made before she starts, carries only the control in her own items.
    const out = join(dir, 'ana.jsonl')
    exportPackage(ws, { datasetId: ds.id, annotator: ana.name, out })
    const header = PackageHeader.parse(JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!))
    const unitOf = (id: number) =>
      (
        ws.db
          .prepare('SELECT u.text FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.id = ?')
          .get(id) as {
          text: string
        }
      ).text
    const itemOf = (id: number) =>
      (
        ws.db
          .prepare('SELECT i.ext_id AS e FROM targets t JOIN items i ON i.id = t.item_id WHERE t.id = ?')
          .get(id) as { e: string }
      ).e
    expect(header.controls.map((c) => [c.item, c.unit])).toEqual([[itemOf(anaControl), unitOf(anaControl)]])

    // Ana labels everything her queue serves: her own control comes, the others never do.
    const served: number[] = []
    for (let guard = 0; guard < 50; guard++) {
      const { targetId } = nextTarget(ws.db, { datasetId: ds.id, annotatorId: ana.id })
      if (targetId === null) break
      served.push(targetId)
      ws.labels.save({ targetId, annotatorId: ana.id, verdict: 'true' })
    }
    expect(served).toContain(anaControl)
    expect(served).not.toContain(benControl)
    expect(served).not.toContain(unassignedControl)

    // Opened by hand, the unassigned item shows its control settled like the unit beside it.
    const view = openAnnotateView(ws.db, { datasetId: ds.id, annotatorId: ana.id, itemId: late, blind: true })
    expect(view.targets.map((t) => [t.targetId, t.settled])).toEqual(lateTargets.map((t) => [t, true]))

    ws.close()
  })
})
