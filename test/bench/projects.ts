import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nextTarget } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { seedBulk } from '../annotate/bulk'

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/**
 * `annotate.next` under the open policy on ~100k targets with 20 annotators, k = 3 against
 * k = 1, with a third of the work already done. Each call is followed by the label it asked
 * for (not timed), so the queue moves as it would. Bar: p99 of k = 3 within 2× of k = 1.
 */
export async function benchOpenQueue(): Promise<void> {
  const targetsWanted = Number(process.env.FACTLAB_BENCH_TARGETS ?? 100_000)
  const items = Math.ceil(targetsWanted / 18) // seedBulk: 3 candidates × 6 facts per item
  const p99: Record<number, number> = {}
  const setups = [1, 3].map((k) => {
    const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
    const ws = Workspace.open(join(dir, 'bench.factlab'))
    const datasetId = seedBulk(ws, items)
    const people = Array.from({ length: 20 }, (_, i) => ensureAnnotator(ws.db, `a${i}`).id)
    setPlan(ws.db, { datasetId, k, policy: 'open' })
    // A third of the targets already hold their k labels, spread over the people.
    ws.db.exec(`
      INSERT INTO labels (target_id, annotator_id, verdict, created_at, updated_at)
        SELECT t.id, a.id, 'true', 'x', 'x' FROM targets t JOIN annotators a
          ON (t.id + a.id * 7) % 20 < ${k} WHERE t.id % 3 = 0`)
    const total = (ws.db.prepare('SELECT COUNT(*) AS n FROM targets').get() as { n: number }).n
    return { k, dir, ws, datasetId, people, total, times: [] as number[] }
  })
  // The two queues take turns call by call, so the load of a shared machine falls on both alike.
  for (let i = 0; i < 4000; i++)
    for (const s of setups) {
      const annotatorId = s.people[(i * 7) % s.people.length]!
      const t0 = performance.now()
      const { targetId } = nextTarget(s.ws.db, { datasetId: s.datasetId, annotatorId })
      s.times.push(performance.now() - t0)
      if (targetId !== null) s.ws.labels.save({ targetId, annotatorId, verdict: 'true' })
    }
  for (const s of setups) {
    s.times.sort((a, b) => a - b)
    p99[s.k] = percentile(s.times, 99)
    process.stdout.write(
      `${s.total} targets, 20 annotators, k = ${s.k}: annotate.next p50 ${percentile(s.times, 50).toFixed(3)} ms, p99 ${p99[s.k]!.toFixed(3)} ms\n`,
    )
    s.ws.close()
    rmSync(s.dir, { recursive: true, force: true })
  }
  const ratio = p99[3]! / p99[1]!
  process.stdout.write(`annotate.next p99, k = 3 / k = 1: ${ratio.toFixed(2)} (bar ≤ 2)\n`)
}
