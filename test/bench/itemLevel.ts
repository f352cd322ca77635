import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { computeItemLevel } from '../../src/main/metrics/items'
import { buildWorkspace } from './metrics'

/**
 * Item-level scores and correlations (500 bootstrap resamples per row) on the FaaF-shaped bench
 * workspace: 3 variants per item, facts judged per candidate, two annotators.
 * No bar in the design; printed so a change in cost shows.
 */
export async function benchItemLevel(): Promise<void> {
  const runs = Number(process.env.FACTLAB_BENCH_ITEM_RUNS ?? 5)
  const verdictRows = Number(process.env.FACTLAB_BENCH_ITEM_ROWS ?? 100_000)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-items-'))
  try {
    const file = join(dir, 'bench.factlab')
    const { datasetId, rows } = buildWorkspace(file, runs, verdictRows)
    const ws = Workspace.open(file)
    try {
      const t = performance.now()
      const l = computeItemLevel(ws.db, datasetId, { replicates: 500 })
      const ms = performance.now() - t
      process.stdout.write(
        `item level over ${rows} verdict rows (${runs} runs, ${l.items.length} responses, ${l.correlations.length} correlation rows): ${ms.toFixed(0)} ms\n`,
      )
    } finally {
      ws.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
