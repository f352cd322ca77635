import { describe, expect, it } from 'vitest'
import { judgeTargetIds, loadJudgeTasks, tasksHoldTargets } from '../../src/main/runs/tasks'
import { deleteUnit, splitUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from './helpers'

const dir = tmpDirs()

describe("a batch drive's check that the run's candidates are still the current ones", () => {
  it('holds for the tasks just loaded, whatever the slice, and fails once a unit is added, split or deleted', () => {
    const { ws, datasetId } = makeWorkspace(dir(), 4, 3)
    const candidate = ws.db
      .prepare('SELECT id FROM candidates ORDER BY id LIMIT 1 OFFSET 2')
      .pluck()
      .get() as number
    const slices = [{}, { itemFrom: 1, itemTo: 2 }, { variants: ['answer'] }, { candidateIds: [candidate] }]
    const held = () =>
      slices.map((slice) => {
        const tasks = loadJudgeTasks(ws.db, datasetId, ['fact'], slice)
        return {
          slice,
          tasks,
          now: tasksHoldTargets(tasks, judgeTargetIds(ws.db, datasetId, ['fact'], slice) ?? []),
        }
      })
    const still = (before: ReturnType<typeof held>) =>
      before.map(({ slice, tasks }) =>
        tasksHoldTargets(tasks, judgeTargetIds(ws.db, datasetId, ['fact'], slice) ?? []),
      )
    expect(held().every((h) => h.now)).toBe(true)
    // A slice cut at a number of candidates depends on their order: never taken as unchanged.
    expect(judgeTargetIds(ws.db, datasetId, ['fact'], { limit: 2 })).toBeNull()

    const units = ws.db.prepare("SELECT id, item_id FROM units WHERE kind = 'fact' ORDER BY id").all() as {
      id: number
      item_id: number
    }[]
    // Items 0–3 with three facts each; the slices hold all, items 1–2, all, and item 2's candidate.
    let before = held()
    ws.content.insertUnit(units[0]!.item_id, { kind: 'fact', text: 'Added.' })
    expect(still(before)).toEqual([false, true, false, true])
    before = held()
    splitUnit(ws.db, units[4]!.id, ['One half.', 'The other half.'])
    expect(still(before)).toEqual([false, false, false, true])
    before = held()
    deleteUnit(ws.db, units[9]!.id)
    expect(still(before)).toEqual([false, true, false, true])
    ws.close()
  })
})
