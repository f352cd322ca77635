import { describe, expect, it } from 'vitest'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { finishAtPace } from '../../src/main/projects/pace'
import { setPlan } from '../../src/main/projects/plan'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

describe('the finish date at the current pace', () => {
  it('a project that began this morning is measured over one day, not seven', () => {
    // The QA walk: 59 labels in three minutes today, 109 to go. A week's divisor said 2026-12-11.
    const now = new Date('2026-11-28T12:00:00Z')
    const r = finishAtPace({ n: 59, first: '2026-11-28T11:57:00Z' }, 109, now)
    expect(r.labelsPerDay).toBe(59)
    expect(r.paceDays).toBe(1)
    expect(r.projectedFinish).toBe('2026-11-30')
  })

  it('three days in, the rate is the labels over those three days; past a week, over the week', () => {
    const now = new Date('2026-11-28T12:00:00Z')
    const three = finishAtPace({ n: 30, first: '2026-11-25T12:00:00Z' }, 25, now)
    expect(three.labelsPerDay).toBe(10)
    expect(three.projectedFinish).toBe('2026-12-01')
    const week = finishAtPace({ n: 70, first: '2026-11-21T12:30:00Z' }, 10, now)
    expect(week.labelsPerDay).toBeCloseTo(70 / 6.979, 2)
    expect(finishAtPace({ n: 0, first: null }, 10, now).projectedFinish).toBeNull()
  })

  it("the dashboard's date follows the labels placed today", () => {
    const { ws, ds, targets, people } = seedProject(tmp(), { items: 5, variants: 2, facts: 2, annotators: 2 })
    setPlan(ws.db, {
      datasetId: ds.id,
      k: 2,
      policy: 'open',
      annotators: [{ name: 'ann0' }, { name: 'ann1' }],
    })
    for (const t of targets.slice(0, 10))
      ws.labels.save({ targetId: t, annotatorId: people[0]!.id, verdict: 'true' })
    const now = new Date(Date.now() + 60_000)
    const d = projectDashboard(ws.db, ds.id, now)
    // 40 wanted, 10 placed today: 10 a day, 30 to go, three days.
    expect(d.labelsPerDay).toBe(10)
    expect(d.projectedFinish).toBe(new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10))
    ws.close()
  })
})
