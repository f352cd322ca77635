import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { datasetSummary, queryItems } from '../../src/main/annotate/datasets'
import { nextTarget } from '../../src/main/annotate/view'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { labelCounts, seedProject } from './seed'

const tmp = tmpDirs()

/**
 * People take turns in the given order; each asks the queue for their next target and labels
 * it, until nobody gets anything. Returns how many labels went on.
 */
function labelThroughQueue(
  ws: ReturnType<typeof seedProject>['ws'],
  datasetId: number,
  people: number[],
  turns: number[],
): number {
  const finished = new Set<number>()
  let placed = 0
  let t = 0
  while (finished.size < people.length) {
    // The given order says who goes next; someone who is done passes the turn along.
    let i = turns[t++ % turns.length]! % people.length
    while (finished.has(people[i]!)) i = (i + 1) % people.length
    const who = people[i]!
    const { targetId } = nextTarget(ws.db, { datasetId, annotatorId: who })
    if (targetId === null) finished.add(who)
    else {
      ws.labels.save({ targetId, annotatorId: who, verdict: placed % 3 === 0 ? 'false' : 'true' })
      placed++
    }
  }
  return placed
}

describe('open policy: overlap k through the queue', () => {
  it('never puts more than k labels on a target and ends with every target at k', () => {
    fc.assert(
      fc.property(
        fc.record({
          items: fc.integer({ min: 1, max: 4 }),
          variants: fc.integer({ min: 1, max: 2 }),
          facts: fc.integer({ min: 1, max: 3 }),
          annotators: fc.integer({ min: 1, max: 5 }),
          kShare: fc.double({ min: 0, max: 1, noNaN: true }),
          turns: fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 40 }),
        }),
        (s) => {
          const { ws, ds, targets, people } = seedProject(tmp(), s)
          try {
            const k = 1 + Math.min(s.annotators - 1, Math.floor(s.kShare * s.annotators))
            setPlan(ws.db, { datasetId: ds.id, k, policy: 'open' })
            const placed = labelThroughQueue(
              ws,
              ds.id,
              people.map((p) => p.id),
              s.turns,
            )
            const counts = labelCounts(ws, ds.id)
            for (const id of targets) expect(counts.get(id)).toBe(k)
            expect(placed).toBe(k * targets.length)
            // The trigger-kept counter agrees with the labels.
            const kept = ws.db
              .prepare('SELECT id, labels_n AS n FROM targets WHERE dataset_id = ?')
              .all(ds.id) as {
              id: number
              n: number
            }[]
            for (const r of kept) expect(r.n).toBe(counts.get(r.id))
          } finally {
            ws.close()
          }
        },
      ),
      { numRuns: 25 },
    )
  })

  it('takes the targets with fewest labels first, so k is reached evenly', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 2, variants: 1, facts: 2, annotators: 3 })
    setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'open' })
    const [a, b] = people
    // a labels two targets by the queue; b's queue then starts with the targets nobody has yet.
    for (let i = 0; i < 2; i++) {
      const { targetId } = nextTarget(ws.db, { datasetId: ds.id, annotatorId: a!.id })
      ws.labels.save({ targetId: targetId!, annotatorId: a!.id, verdict: 'true' })
    }
    const { targetId } = nextTarget(ws.db, { datasetId: ds.id, annotatorId: b!.id })
    expect(labelCounts(ws, ds.id).get(targetId!)).toBe(0)
    expect(targets).toContain(targetId)
    ws.close()
  })

  it('treats a target at k as done for everyone else, in the queue and in the Items filter', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 1, variants: 1, facts: 1, annotators: 3 })
    const [a, b, c] = people
    setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'open' })
    ws.labels.save({ targetId: targets[0]!, annotatorId: a!.id, verdict: 'true' })
    ws.labels.save({ targetId: targets[0]!, annotatorId: b!.id, verdict: 'true' })
    expect(nextTarget(ws.db, { datasetId: ds.id, annotatorId: c!.id }).targetId).toBeNull()
    const open = queryItems(ws.db, {
      datasetId: ds.id,
      annotatorId: c!.id,
      filter: { status: 'unlabelled', variant: null, search: '' },
      offset: 0,
      limit: 10,
    })
    expect(open.total).toBe(0)
    // The datasets list measures progress against the plan: 2 of 2 labels wanted, 1 target done.
    expect(datasetSummary(ws.db, ds.id).plan).toMatchObject({
      k: 2,
      targets: 1,
      complete: 1,
      towards: 2,
      wanted: 2,
    })
    // By hand it can still get a third label, and the dashboard says so.
    ws.labels.save({ targetId: targets[0]!, annotatorId: c!.id, verdict: 'false' })
    const d = projectDashboard(ws.db, ds.id)
    expect(d.annotators.find((x) => x.name === c!.name)?.overK).toBe(1)
    expect(d.complete).toBe(1)
    ws.close()
  })

  it('projects the finish from the last week of labelling', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 1, variants: 1, facts: 2, annotators: 2 })
    setPlan(ws.db, { datasetId: ds.id, k: 2 })
    ws.labels.save({ targetId: targets[0]!, annotatorId: people[0]!.id, verdict: 'true', seconds: 30 })
    const now = new Date()
    const d = projectDashboard(ws.db, ds.id, now)
    // One label, placed today: 1 a day (not 1/7: the project is not a week old); three left take
    // 3 days. At 30 s a label, 1.5 minutes of work.
    expect(d.labelsPerDay).toBeCloseTo(1, 9)
    expect(d.projectedFinish).toBe(new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10))
    expect(d.projectedHours).toBeCloseTo((3 * 30) / 3600, 9)
    ws.close()
  })

  it('refuses k larger than the number of annotators and changes nothing', () => {
    const { ws, ds } = seedProject(tmp(), { items: 1, variants: 1, facts: 1, annotators: 2 })
    expect(() => setPlan(ws.db, { datasetId: ds.id, k: 3 })).toThrow(
      /k = 3 needs at least 3 annotators.*has 2/,
    )
    expect(ws.db.prepare('SELECT COUNT(*) AS n FROM dataset_plans').get()).toEqual({ n: 0 })
    expect(() =>
      setPlan(ws.db, { datasetId: ds.id, k: 2, policy: 'fixed', annotators: [{ name: 'ann0' }] }),
    ).toThrow(/needs at least 2 annotators/)
    ws.close()
  })
})

describe('fixed policy', () => {
  const assignments = (ws: ReturnType<typeof seedProject>['ws']) =>
    ws.db.prepare('SELECT annotator_id AS a, item_id AS i FROM assignments ORDER BY a, i').all()

  it('draws the same assignment from the same seed, each item to exactly k people', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.nat({ max: 1000 }),
        (items, annotators, seed) => {
          const { ws, ds } = seedProject(tmp(), { items, variants: 1, facts: 1, annotators })
          try {
            const k = Math.max(1, annotators - 1)
            const names = Array.from({ length: annotators }, (_, i) => ({ name: `ann${i}` }))
            setPlan(ws.db, { datasetId: ds.id, k, policy: 'fixed', seed, annotators: names })
            const first = assignments(ws)
            setPlan(ws.db, { datasetId: ds.id, k, policy: 'fixed', seed, annotators: [...names].reverse() })
            expect(assignments(ws)).toEqual(first)
            const perItem = ws.db
              .prepare('SELECT COUNT(DISTINCT annotator_id) AS n FROM assignments GROUP BY item_id')
              .all() as { n: number }[]
            expect(perItem).toHaveLength(items)
            for (const r of perItem) expect(r.n).toBe(k)
          } finally {
            ws.close()
          }
        },
      ),
      { numRuns: 20 },
    )
  })

  it('gives each annotator only their items and ends with every target at k', () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 6, variants: 2, facts: 1, annotators: 3 })
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'fixed',
      seed: 7,
      annotators: people.map((p) => ({ name: p.name })),
    })
    const placed = labelThroughQueue(
      ws,
      ds.id,
      people.map((p) => p.id),
      [0, 1, 2],
    )
    expect(placed).toBe(2 * targets.length)
    const mineOutside = ws.db
      .prepare(
        `SELECT COUNT(*) AS n FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE NOT EXISTS (SELECT 1 FROM assignments a WHERE a.item_id = t.item_id AND a.annotator_id = l.annotator_id)`,
      )
      .get()
    expect(mineOutside).toEqual({ n: 0 })
    ws.close()
  })
})
