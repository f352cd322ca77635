import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { computeItemLevel } from '../../src/main/metrics/items'
import { datasetSnapshot } from '../../src/main/metrics/snapshot'
import { buildWorkspace } from './metrics'

/** Bar (issue 11's Compare view budget, item-level share): item-level figures in ≤ 0.5 s. */
const BAR_MS = 500

/**
 * Item-level scores and correlations on the FaaF-shaped 1M-verdict workspace (20 runs, 3 variants
 * per item, two annotators): every series, 22 correlation lines overall and per variant, with
 * the bootstrap count the dataset's size allows (printed). The column load the Compare view's
 * figures share is timed apart: it belongs to the metrics bench.
 */
export async function benchItemLevel(): Promise<void> {
  const runs = Number(process.env.FACTLAB_BENCH_ITEM_RUNS ?? 20)
  const verdictRows = Number(process.env.FACTLAB_BENCH_ITEM_ROWS ?? 1_000_000)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-items-'))
  try {
    const file = join(dir, 'bench.factlab')
    const { datasetId, rows } = buildWorkspace(file, runs, verdictRows)
    const warm = Workspace.open(file)
    computeItemLevel(warm.db, datasetId) // warm the page cache and the JIT
    warm.close()
    // A fresh connection: results are reused per connection and workspace version.
    const ws = Workspace.open(file)
    try {
      const t0 = performance.now()
      datasetSnapshot(ws.db, datasetId)
      const load = performance.now() - t0
      const t1 = performance.now()
      const cpu0 = process.cpuUsage()
      const l = computeItemLevel(ws.db, datasetId)
      const ms = performance.now() - t1
      const cpu = process.cpuUsage(cpu0)
      const cpuMs = (cpu.user + cpu.system) / 1000
      const t2 = performance.now()
      computeItemLevel(ws.db, datasetId)
      const again = performance.now() - t2
      process.stdout.write(
        `item level over ${rows} verdict rows (${runs} runs, ${l.items.length} responses, ` +
          `${l.correlations.length} correlation lines, ${l.replicates} resamples): ${ms.toFixed(0)} ms — ` +
          `${(ms / BAR_MS).toFixed(2)}× the 0.5 s bar (${ms <= BAR_MS ? 'meets' : 'misses'} it); CPU ${cpuMs.toFixed(0)} ms ` +
          `(${(cpuMs / BAR_MS).toFixed(2)}× the bar; the steadier figure on a shared machine); ` +
          `shared column load before it ${load.toFixed(0)} ms; unchanged workspace again ${again.toFixed(1)} ms\n`,
      )
    } finally {
      ws.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
