import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'

/**
 * Bar: all judge metrics of a dataset with 1M verdict rows in under 1 s. 20 runs × ~50k targets
 * (FaaF shape: 3 variants × 6 facts per item), every target labelled by two annotators.
 */
export async function benchMetrics(): Promise<void> {
  const runs = Number(process.env.FACTLAB_BENCH_METRICS_RUNS ?? 20)
  const verdictRows = Number(process.env.FACTLAB_BENCH_METRICS_VERDICTS ?? 1_000_000)
  const items = Math.ceil(verdictRows / runs / 18)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  const ws = Workspace.open(join(dir, 'metrics.factlab'))
  try {
    const db = ws.db
    const ds = createDataset(db, { name: 'bench', labelSchema: FAAF_SCHEMA })
    db.transaction(() => {
      for (let i = 0; i < items; i++) {
        const item = ws.content.insertItem(ds.id, { extId: `i${i}`, question: 'q', reference: 'r' }, i)
        for (const v of ['answer', 'ungrounded_answer', 'poor_answer'])
          ws.content.insertCandidate(item, { variant: v, text: 'c' })
        for (let f = 0; f < 6; f++) ws.content.insertUnit(item, { kind: 'fact', text: `fact ${f}` })
      }
    })()
    const targets = db
      .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id')
      .pluck()
      .all(ds.id) as number[]
    const annotators = [ensureAnnotator(db, 'ana').id, ensureAnnotator(db, 'bob').id]
    // Written directly: the bench measures reading, and LabelWriter's per-label checks are not the point here.
    const insLabel = db.prepare(
      "INSERT INTO labels (target_id, annotator_id, verdict, created_at, updated_at) VALUES (?, ?, ?, '2026-01-01', '2026-01-01')",
    )
    const truth = targets.map((_, i) => (i % 3 === 0 ? 'false' : 'true'))
    db.transaction(() => {
      targets.forEach((t, i) => {
        insLabel.run(t, annotators[0], truth[i])
        insLabel.run(t, annotators[1], i % 17 === 0 ? 'not_clear' : truth[i])
      })
    })()
    const insRun = db.prepare(
      `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at) VALUES ('imported', ?, 'imported', ?, 'faaf-tf', 'done', '2026-01-01')`,
    )
    const insVerdict = db.prepare(
      'INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)',
    )
    let rows = 0
    db.transaction(() => {
      for (let r = 0; r < runs; r++) {
        const runId = Number(insRun.run(ds.id, `model-${r}`).lastInsertRowid)
        targets.forEach((t, i) => {
          if (rows >= verdictRows) return
          const wrong = (i * 7919 + r * 104729) % 100 < 5 + r
          const status = (i + r) % 97 === 0 ? 'na' : (i + r) % 211 === 0 ? 'error' : 'ok'
          const v = truth[i] === 'true' ? (wrong ? 'false' : 'true') : wrong ? 'true' : 'false'
          insVerdict.run(runId, t, status, status === 'ok' ? v : null)
          rows++
        })
      }
    })()
    computeDatasetMetrics(db, ds.id, { replicates: 50 }) // warm the page cache and the JIT
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const m = computeDatasetMetrics(db, ds.id)
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    const cpuMs = (cpu.user + cpu.system) / 1000
    process.stdout.write(
      `metrics over ${rows} verdict rows (${runs} runs, ${targets.length} targets): ${ms.toFixed(0)} ms — ` +
        `${(ms / 1000).toFixed(2)}× the 1 s bar (${ms <= 1000 ? 'meets' : 'misses'} it); CPU ${cpuMs.toFixed(0)} ms ` +
        `(on a shared machine the CPU time is the steadier figure); first judge ER ${m.judges[0]?.errorRate?.toFixed(3)}\n`,
    )
  } finally {
    ws.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
