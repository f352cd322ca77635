import { describe, expect, it } from 'vitest'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

const grid = (d: ReturnType<typeof projectDashboard>) =>
  Object.fromEntries(
    d.annotators.map((a) => [
      a.name,
      Object.fromEntries(a.byVariant.map((v) => [v.variant, [v.labels, v.assigned]])),
    ]),
  )

describe("the lead's dashboard", () => {
  it('shows each annotator’s progress on each variant against their share', () => {
    // 2 items × 2 facts × variants v0 and v1: targets alternate v0, v1, v0, v1, …
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 2, variants: 2, facts: 2, annotators: 2 })
    const [ann0, ann1] = people
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'open',
      annotators: [{ name: 'ann0' }, { name: 'ann1' }],
    })
    // One v1 target is a control: it is not work, so v1 has 3 targets to label twice.
    setControls(ws.db, ds.id, { fromGold: [], answers: [{ targetId: targets[7]!, verdict: 'true' }] }, 'now')
    const v0 = targets.filter((_, i) => i % 2 === 0)
    const v1 = targets.filter((_, i) => i % 2 === 1)
    for (const t of v0) ws.labels.save({ targetId: t, annotatorId: ann0!.id, verdict: 'true' })
    ws.labels.save({ targetId: v1[0]!, annotatorId: ann0!.id, verdict: 'false' })
    for (const t of v0.slice(0, 2)) ws.labels.save({ targetId: t, annotatorId: ann1!.id, verdict: 'true' })
    ws.labels.save({ targetId: targets[7]!, annotatorId: ann1!.id, verdict: 'true' })

    const d = projectDashboard(ws.db, ds.id)
    // Shares: k × targets / 2 people = 2 × 4 / 2 = 4 for v0, 2 × 3 / 2 = 3 for v1.
    expect(grid(d)).toEqual({
      ann0: { v0: [4, 4], v1: [1, 3] },
      ann1: { v0: [2, 4], v1: [0, 3] },
    })
    ws.close()
  })

  it('under a fixed plan, splits each person’s assignment by variant, adding up to their whole share', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 6, variants: 2, facts: 2, annotators: 3 })
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'fixed',
      seed: 7,
      annotators: people.map((p) => ({ name: p.name })),
    })
    for (const p of people) ws.labels.save({ targetId: targets[0]!, annotatorId: p.id, verdict: 'true' })
    const d = projectDashboard(ws.db, ds.id)
    for (const a of d.annotators) {
      expect(a.byVariant.map((v) => v.variant)).toEqual(['v0', 'v1'])
      expect(a.byVariant.reduce((s, v) => s + (v.assigned ?? 0), 0)).toBe(a.assigned)
      expect(a.byVariant.reduce((s, v) => s + v.labels, 0)).toBe(a.labels)
      // Every assigned item holds both variants of each fact, so the two halves are equal.
      expect(a.byVariant[0]!.assigned).toBe(a.byVariant[1]!.assigned)
    }
    // targets[0] is a v0 target: each person's one label shows under v0.
    expect(d.annotators.map((a) => a.byVariant[0]!.labels)).toEqual([1, 1, 1])
    // Progress on the assignment counts only labels on it: targets[0]'s item went to two of three.
    const held = new Set(
      (
        ws.db
          .prepare(
            'SELECT a.annotator_id AS id FROM assignments a JOIN targets t ON t.item_id = a.item_id WHERE t.id = ?',
          )
          .all(targets[0]!) as { id: number }[]
      ).map((r) => r.id),
    )
    expect(held.size).toBe(2)
    for (const a of d.annotators) {
      expect(a.labels).toBe(1)
      expect(a.assignedDone).toBe(held.has(a.annotatorId) ? 1 : 0)
    }
    ws.close()
  })
})
