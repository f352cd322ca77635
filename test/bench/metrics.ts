import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { startServer } from '../../src/main/server/server'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { findChromium, launchChromium } from '../helpers/chromium'
import { mainThreadCpuMs } from './mainThread'
import { figure, info, note, rss } from './record'
import { windowProfile } from './windowProfile'

/** A Compare view opened in the page: its time, and when its parts arrived (ms after the route changed). */
interface OpenTimes {
  ms: number
  asked: number | null
  answered: number | null
  server: number | null
  script: number | null
}

/**
 * A FaaF-shaped workspace (3 variants × 6 facts per item) with `runs` imported judge runs and
 * `verdictRows` verdicts in all, every target labelled by two annotators.
 */
export function buildWorkspace(
  file: string,
  runs: number,
  verdictRows: number,
): { datasetId: number; targets: number; rows: number } {
  const ws = Workspace.open(file)
  try {
    const db = ws.db
    const items = Math.ceil(verdictRows / runs / 18)
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
    return { datasetId: ds.id, targets: targets.length, rows }
  } finally {
    ws.close()
  }
}

/** Bar: all judge metrics of a dataset with 1M verdict rows (20 runs × ~50k targets) in 0.3 s. */
export async function benchMetrics(): Promise<void> {
  const runs = Number(process.env.FACTLAB_BENCH_METRICS_RUNS ?? 20)
  const verdictRows = Number(process.env.FACTLAB_BENCH_METRICS_VERDICTS ?? 1_000_000)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  try {
    const file = join(dir, 'metrics.factlab')
    const { datasetId, targets, rows } = buildWorkspace(file, runs, verdictRows)
    // The first read after a run's verdicts changed stores each run's verdict column (migration
    // 0100); it also warms the page cache and the JIT.
    const warm = Workspace.open(file)
    const w0 = performance.now()
    computeDatasetMetrics(warm.db, datasetId, { replicates: 50 })
    info('first metrics after the verdicts were written (columns stored)', performance.now() - w0, 'ms')
    warm.close()
    // A fresh connection: results are reused per connection and workspace version, and the bar
    // is about computing them, not about finding them again.
    const ws = Workspace.open(file)
    try {
      const t0 = performance.now()
      const cpu0 = process.cpuUsage()
      const m = computeDatasetMetrics(ws.db, datasetId)
      const ms = performance.now() - t0
      const cpu = process.cpuUsage(cpu0)
      const cpuMs = (cpu.user + cpu.system) / 1000
      figure(`metrics over ${rows} verdicts (${runs} runs × ${targets} targets)`, ms, 'ms', 300)
      info(
        'CPU time of the same (steadier on a shared machine)',
        cpuMs,
        'ms',
        `first judge ER ${m.judges[0]?.errorRate?.toFixed(3)}`,
      )
      rss('metrics')
    } finally {
      ws.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Bar: the Compare view of 20 runs opens in under 1 s in Chromium (served in browser mode). */
export async function benchCompareView(): Promise<void> {
  const exe = findChromium()
  const renderer = resolve('out/renderer')
  if (!exe || !existsSync(join(renderer, 'index.html'))) {
    note('skipped: needs Chromium and a built renderer (npx electron-vite build)')
    return
  }
  const runs = 20
  const verdictRows = Number(process.env.FACTLAB_BENCH_COMPARE_VERDICTS ?? 200_000)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-'))
  const file = join(dir, 'compare.factlab')
  const { datasetId, rows } = buildWorkspace(file, runs, verdictRows)
  const server = await startServer({ workspaceFile: file, port: 0, rendererDir: renderer })
  const browser = await launchChromium(exe)
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(server.url)
    const gate = page.getByRole('dialog', { name: 'Who is labelling?' })
    await gate.getByRole('button', { name: 'ana', exact: true }).click()
    await gate.waitFor({ state: 'detached' })
    // Timed inside the page, from the route change to the frame after the table's last row and
    // both charts at the top of the view are in the document: the view's own time, without the
    // test driver's round trips (three of them, 10-30 ms each, were most of a warm open). The
    // page's resource timings say when the figures' answer and the view's script arrived.
    const open = async () => {
      await page.evaluate(`location.hash = '#/datasets'`)
      await page.getByTestId('compare-view').waitFor({ state: 'detached' })
      return (await page.evaluate(`new Promise((resolve) => {
        const ready = () =>
          document.querySelectorAll('[data-testid="judge-table"] tbody tr').length >= ${runs} &&
          document.querySelector('[data-testid="variant-bars"]') &&
          document.querySelector('[data-testid="cost-scatter"]')
        performance.clearResourceTimings()
        const t0 = performance.now()
        const seen = new MutationObserver(() => {
          if (!ready()) return
          seen.disconnect()
          requestAnimationFrame(() => {
            const ms = performance.now() - t0
            const got = performance.getEntriesByType('resource')
            const call = got.find((e) => e.name.endsWith('/api/call/metrics.compare'))
            const script = got.find((e) => /CompareView-[^/]*[.]js$/.test(e.name))
            resolve({
              ms,
              asked: call ? call.startTime - t0 : null,
              answered: call ? call.responseEnd - t0 : null,
              server: call ? call.responseStart - call.requestStart : null,
              script: script ? script.responseEnd - t0 : null,
            })
          })
        })
        seen.observe(document.body, { subtree: true, childList: true })
        location.hash = '#/compare/${datasetId}'
      })`)) as OpenTimes
    }
    // The renderer's main thread (Chromium's own counters) and the server's (this process) over
    // the cold open: where its time goes, beside the wall time.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    const rendererTimes = async () =>
      new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value * 1000]))
    // FACTLAB_BENCH_PROFILE=compare.cpuprofile profiles the cold open on both sides
    // (compare-server.cpuprofile, compare-renderer.cpuprofile).
    const profiled = process.env.FACTLAB_BENCH_PROFILE
    const serverProfile = windowProfile('server')
    if (profiled) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
      await cdp.send('Profiler.start')
    }
    const r0 = await rendererTimes()
    const s0 = mainThreadCpuMs()
    serverProfile.start()
    // The first open computes everything; later opens of an unchanged workspace reuse it.
    const coldOpen = await open()
    serverProfile.stop()
    const serverCpu = mainThreadCpuMs() - s0
    const r1 = await rendererTimes()
    if (profiled) {
      const { profile } = await cdp.send('Profiler.stop')
      writeFileSync(profiled.replace(/(\.cpuprofile)?$/, '-renderer.cpuprofile'), JSON.stringify(profile))
    }
    const spent = (name: string) => (r1.get(name) ?? 0) - (r0.get(name) ?? 0)
    const cold = coldOpen.ms
    const at = (ms: number | null) => (ms === null ? 'not seen' : `${ms.toFixed(0)} ms`)
    info(
      'Compare view cold: the figures asked for / answered, after the route changed',
      coldOpen.answered ?? Number.NaN,
      'ms',
      `asked at ${at(coldOpen.asked)}, the server's answer began ${at(coldOpen.server)} after the request; the view's script loaded at ${at(coldOpen.script)}`,
    )
    info(
      "Compare view cold: the renderer's main thread busy (script, layout, style)",
      spent('TaskDuration'),
      'ms',
      `script ${spent('ScriptDuration').toFixed(0)} ms, layout ${spent('LayoutDuration').toFixed(0)} ms, style ${spent('RecalcStyleDuration').toFixed(0)} ms`,
    )
    info("Compare view cold: the server's main-thread CPU (this process)", serverCpu, 'ms')
    await page
      .getByTestId('label-next')
      .or(page.getByText('Every target the judges saw already has gold.'))
      .or(page.getByText(/^Blind mode is on: where the judges split/))
      .waitFor()
    const warm = Math.min((await open()).ms, (await open()).ms)
    figure(`Compare view, ${runs} runs × ${rows} verdicts, cold`, cold, 'ms', 1000)
    figure('Compare view reopened unchanged (warm)', warm, 'ms', 100)
  } finally {
    await browser.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
