import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { exportPackage } from '../../src/main/projects/packageExport'
import { setPlan } from '../../src/main/projects/plan'
import { datasetStats } from '../../src/main/store/repos/datasets'
import { editUnit } from '../../src/main/units/edit'
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
  it('shows a package a newer one replaced as replaced, and counts only the current ones as out', () => {
    const dir = tmp()
    const { ws, ds } = seedProject(dir, { items: 2, variants: 1, facts: 1, annotators: 2 })
    setPlan(ws.db, { datasetId: ds.id, k: 1, annotators: [{ name: 'ann0' }, { name: 'ann1' }] })
    const send = (who: string, n: number) =>
      exportPackage(ws, { datasetId: ds.id, annotator: who, out: join(dir, `${who}.v${n}.jsonl`) })
    send('ann0', 1)
    send('ann1', 1)
    send('ann0', 2)
    send('ann0', 3)
    const rows = projectDashboard(ws.db, ds.id).packages.map((p) => [p.annotator, p.version, p.replacedBy])
    expect(rows).toEqual([
      ['ann0', 1, 3],
      ['ann1', 1, null],
      ['ann0', 2, 3],
      ['ann0', 3, null],
    ])
    ws.close()
  })

  it('without a plan there is no k, so nobody has labels past k, however many label a target', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 1, variants: 1, facts: 2, annotators: 3 })
    for (const p of people)
      for (const t of targets) ws.labels.save({ targetId: t, annotatorId: p.id, verdict: 'true' })
    const d = projectDashboard(ws.db, ds.id)
    expect(d.plan.planned).toBe(false)
    expect(d.annotators.map((a) => [a.labels, a.overK])).toEqual(people.map(() => [targets.length, 0]))
    ws.close()
  })

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

  it('says which labels it leaves out, so a person’s numbers reconcile with the Datasets card', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 2, variants: 1, facts: 2, annotators: 2 })
    const [ann0, ann1] = people
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'open',
      annotators: [{ name: 'ann0' }, { name: 'ann1' }],
    })
    const [t0, t1, t2, t3] = targets as [number, number, number, number]
    setControls(ws.db, ds.id, { fromGold: [], answers: [{ targetId: t3, verdict: 'true' }] }, 'now')
    for (const t of [t0, t1, t2, t3]) ws.labels.save({ targetId: t, annotatorId: ann0!.id, verdict: 'true' })
    ws.labels.save({ targetId: t0, annotatorId: ann1!.id, verdict: 'true' })
    // t2's fact is reworded after ann0 labelled it: the label stays on the older wording.
    const unitOf = (t: number) =>
      (ws.db.prepare('SELECT unit_id AS u FROM targets WHERE id = ?').get(t) as { u: number }).u
    editUnit(ws.db, unitOf(t2), 'Fact 1.0, reworded.')

    const d = projectDashboard(ws.db, ds.id)
    const ann0Row = d.annotators.find((a) => a.name === 'ann0')!
    expect(ann0Row.labels).toBe(2)
    expect(d.notCounted.people).toEqual([
      { name: 'ann0', controls: 1, olderWordings: 1, deletedUnits: 0, outsideAssignment: 0 },
    ])
    // The Datasets card counts the control too (current units): 2 counted + 1 on a control.
    expect(datasetStats(ws.db, ds.id).labelledBy.ann0).toBe(ann0Row.labels + 1)
    ws.close()
  })

  it('never turns labels without recorded time into "0 min", "$0.00" or a time left', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 2, variants: 2, facts: 2, annotators: 2 })
    const [ann0, ann1] = people
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'open',
      annotators: [
        { name: 'ann0', hourlyRate: 30 },
        { name: 'ann1', hourlyRate: 25 },
      ],
    })
    // ann1 labels from the CLI (no clock); ann0 in the app, about 6 seconds in all.
    for (const t of targets.slice(0, 3))
      ws.labels.save({ targetId: t, annotatorId: ann1!.id, verdict: 'true' })
    let d = projectDashboard(ws.db, ds.id)
    expect(d.timedLabels).toBe(0)
    expect(d.projectedHours).toBeNull()
    const row = (name: string) => d.annotators.find((a) => a.name === name)!
    expect(row('ann1')).toMatchObject({
      labels: 3,
      timedLabels: 0,
      activeSeconds: 0,
      cost: null,
      hourlyRate: 25,
    })

    ws.labels.save({ targetId: targets[0]!, annotatorId: ann0!.id, verdict: 'true', seconds: 2.5 })
    ws.labels.save({ targetId: targets[1]!, annotatorId: ann0!.id, verdict: 'true', seconds: 3.2 })
    d = projectDashboard(ws.db, ds.id)
    expect(row('ann0')).toMatchObject({ timedLabels: 2, cost: (5.7 / 3600) * 30 })
    expect(row('ann1').cost).toBeNull()
    // The pace comes from the timed labels only: 11 labels left at their median, 2.85 s.
    expect(d.timedLabels).toBe(2)
    expect(d.labels).toBe(5)
    expect(d.projectedHours! * 3600).toBeCloseTo(11 * 2.85)
    ws.close()
  })
})
