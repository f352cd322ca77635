/**
 * `annotate.next` under a fixed plan on the million-target workspace
 * (`npm run bench -- --only benchMillionQueue`; `--only million` runs it with the others). The
 * plan of million/plan.ts (k = 2, each person a fixed share of 40,000 items) leaves annotator-1
 * with 40,000 of her 400,000 targets open, scattered over the whole id range: the rest carry
 * two labels already. That is the state in which a queue that walks her share in id order passes
 * a closed target for every open one it serves, so it is timed here beside the bar of the plain
 * queue (benchMillion's `annotate.next`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { openWorkspace } from '../../src/main/store/connection'
import { ANNOTATORS, copyOf, millionWorkspace } from './million/generate'
import { addPlan } from './million/plan'
import { figure, info, percentile, rss } from './record'

export async function benchMillionQueue(): Promise<void> {
  const m = millionWorkspace()
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-queue-'))
  try {
    const file = copyOf(m, join(dir, 'million.factlab'))
    // Migrations added since the cached workspace was made run before anything is timed.
    openWorkspace(file, { skipQuickCheck: true }).close()
    addPlan(file, m.datasetId, m.spec.annotators)
    const ctx = new AppContext(file, { driver: 'browser' })
    try {
      const handlers = buildHandlers(ctx)
      const me = ctx.workspace.db
        .prepare('SELECT id FROM annotators WHERE name = ?')
        .pluck()
        .get(ANNOTATORS(1)[0]) as number
      const open = ctx.workspace.db
        .prepare(
          `SELECT COUNT(*) FROM assignments a JOIN targets t ON t.item_id = a.item_id
           WHERE a.annotator_id = ? AND a.dataset_id = ? AND t.labels_n < 2`,
        )
        .pluck()
        .get(me, m.datasetId) as number
      info('targets still open in her share (of 400,000)', open, '')
      const times: number[] = []
      let cpu = 0
      let after: number | undefined
      let spent = 0
      // 300 calls, or fewer once 15 s have gone by: a slow queue's ratio is plain by then.
      for (let i = 0; i < 300 && (i < 20 || spent < 15_000); i++) {
        const t0 = performance.now()
        const c0 = process.threadCpuUsage()
        const r = await dispatch(handlers, 'annotate.next', {
          datasetId: m.datasetId,
          annotatorId: me,
          ...(after === undefined ? {} : { afterTargetId: after }),
        })
        const t = performance.now() - t0
        const c = process.threadCpuUsage(c0)
        cpu += (c.user + c.system) / 1000
        times.push(t)
        spent += t
        if (!r.ok) throw new Error(`annotate.next: ${r.error.message}`)
        const next = (r.value as { targetId: number | null }).targetId
        if (next === null) break
        // Labelled as she would, so her queue moves on as hers does.
        ctx.workspace.labels.save({ targetId: next, annotatorId: me, verdict: 'true', seconds: 2 })
        after = next
      }
      times.sort((a, b) => a - b)
      figure(
        `annotate.next under a fixed plan, her share mostly closed (${times.length} calls, each after a save), p99`,
        percentile(times, 99),
        'ms',
        5,
        'max',
        // The wall clock swings on a shared machine; the main thread's CPU time for the calls alone
        // (the saves not counted) says what the query costs. Summed over the calls, as the clock
        // it reads moves in steps of several milliseconds here.
        `CPU ${(cpu / times.length).toFixed(2)} ms a call`,
      )
      // From the last target of the dataset her queue wraps to the start: both walks of each level.
      const last = ctx.workspace.db
        .prepare('SELECT MAX(id) FROM targets WHERE dataset_id = ?')
        .pluck()
        .get(m.datasetId) as number
      const wraps: number[] = []
      let wrapCpu = 0
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now()
        const c0 = process.threadCpuUsage()
        await dispatch(handlers, 'annotate.next', {
          datasetId: m.datasetId,
          annotatorId: me,
          afterTargetId: last,
        })
        const c = process.threadCpuUsage(c0)
        wrapCpu += (c.user + c.system) / 1000
        wraps.push(performance.now() - t0)
      }
      wraps.sort((a, b) => a - b)
      figure(
        'annotate.next under a fixed plan, wrapping from the last target to her first open one (20 calls), p99',
        percentile(wraps, 99),
        'ms',
        5,
        'max',
        `CPU ${(wrapCpu / wraps.length).toFixed(2)} ms a call`,
      )
      rss('annotate.next under a fixed plan')
    } finally {
      ctx.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
