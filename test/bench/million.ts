/**
 * The million-target workspace (million/generate.ts): opening it, the items view, the next unit,
 * the Agreement and Compare views cold and warm, the Project view cold and warm (with a plan too: benchMillionProject), the Judges view's run list, and a Parquet export
 * of every target, each with the resident memory after it. Calls go through the same dispatch as the app's (input parsed,
 * output checked against the contract), so what is timed is what a view waits for.
 */
import { fork } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fileWriter, parquetWriteRows } from 'hyparquet-writer'
import { loadWords } from '../../src/main/annotate/vocabulary'
import { AppContext } from '../../src/main/app/context'
import { exportDataset } from '../../src/main/export/datasetExport'
import { targetBatches } from '../../src/main/export/targetColumns'
import { annotatorColumns, targetFeatures, targetRows } from '../../src/main/export/targetRows'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { openWorkspace } from '../../src/main/store/connection'
import { getDataset } from '../../src/main/store/repos/datasets'
import { findChromium, launchChromium } from '../helpers/chromium'
import { firstScreenPhases, type PageTimings } from './firstScreen'
import { gateMarkScript } from './gateMark'
import { mainThreadCpuMs, mainThreadFaults, pageFaultMicros } from './mainThread'
import { ANNOTATORS, copyOf, millionWorkspace } from './million/generate'
import { addPlan } from './million/plan'
import { figure, info, infoRate, note, percentile, rss } from './record'
import { windowProfile } from './windowProfile'

type Handlers = ReturnType<typeof buildHandlers>

async function call(handlers: Handlers, name: string, input: unknown): Promise<unknown> {
  const r = await dispatch(handlers, name, input)
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`)
  return r.value
}

async function timed(fn: () => unknown): Promise<number> {
  const t0 = performance.now()
  await fn()
  return performance.now() - t0
}

/**
 * p99 of `runs` timings of fn (with 20 runs the p99 is the slowest), and the main thread's CPU
 * time per run (a mean: the clock it reads counts in 10 ms steps). A case far over its bar stops
 * after 10 s of repeats: its ratio is clear by then.
 */
async function p99(runs: number, fn: (i: number) => unknown): Promise<{ p99: number; cpu: number }> {
  const times: number[] = []
  let spent = 0
  const c0 = mainThreadCpuMs()
  for (let i = 0; i < runs && (i < 3 || spent < 10_000); i++) {
    const t = await timed(() => fn(i))
    times.push(t)
    spent += t
  }
  const cpu = (mainThreadCpuMs() - c0) / times.length
  times.sort((a, b) => a - b)
  return { p99: percentile(times, 99), cpu }
}

export async function benchMillion(): Promise<void> {
  const m = millionWorkspace()
  const targets = m.spec.items * m.spec.unitsPerItem
  if (m.reused) note(`reusing the cached workspace ${m.file}`)
  else info(`workspace of ${targets.toLocaleString('en-US')} targets generated`, m.seconds, 's')
  info('workspace file size', statSync(m.file).size / 2 ** 20, 'MB')
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-million-'))
  try {
    const file = copyOf(m, join(dir, 'million.factlab'))
    rss('copying the workspace')
    // The cached workspace keeps the schema it was generated with. Migrations added since run
    // once here, timed on their own (and their writes checkpointed), so that the figures below
    // are those of an up-to-date workspace, not of its one-time upgrade.
    const t0 = performance.now()
    openWorkspace(file, { skipQuickCheck: true }).close()
    info('bringing the cached workspace to the current schema (once)', performance.now() - t0, 'ms')
    await openInBrowser(file)
    const ctx = new AppContext(file, { driver: 'browser' })
    try {
      const handlers = buildHandlers(ctx)
      const datasetId = m.datasetId
      const me = ctx.workspace.db
        .prepare('SELECT id FROM annotators WHERE name = ?')
        .pluck()
        .get(ANNOTATORS(1)[0]) as number
      searchIndexSizes(ctx)
      await itemsView(handlers, datasetId, me, m.spec.items)
      rss('the items view')
      await nextUnit(ctx, handlers, datasetId, me)
      rss('annotate.next')
    } finally {
      ctx.close()
    }
    await views(file, m.datasetId)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The Agreement and Compare views alone, cold and warm (`npm run bench -- --only benchMillionViews`);
 * `--only million` runs them with the others.
 */
export async function benchMillionViews(): Promise<void> {
  const m = millionWorkspace()
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-million-'))
  try {
    const file = copyOf(m, join(dir, 'million.factlab'))
    // Migrations added since the cached workspace was made run (and are checkpointed) before
    // anything is timed, as in benchMillion: the views would otherwise read their pages from the WAL.
    openWorkspace(file, { skipQuickCheck: true }).close()
    await views(file, m.datasetId)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The Project view alone (`npm run bench -- --only benchMillionProject`): on the bench workspace,
 * which has no plan, and on its planned copy (million/plan.ts: k = 2, a fixed assignment, 1%
 * controls, labels past k), so the "past k" query and each person's share are timed too.
 */
export async function benchMillionProject(): Promise<void> {
  const m = millionWorkspace()
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-million-'))
  try {
    // One copy at a time, planned after the first measurement: the disk is shared.
    const file = copyOf(m, join(dir, 'million.factlab'))
    // Migrations added since the cached workspace was made run (and are checkpointed) before
    // anything is timed, as in benchMillionViews: the first view would otherwise read from the WAL.
    openWorkspace(file, { skipQuickCheck: true }).close()
    await projectView(file, m.datasetId, 'Project view (projects.dashboard)')
    const t0 = performance.now()
    const made = addPlan(file, m.datasetId, m.spec.annotators)
    info(
      'plan put on the copy (k = 2, fixed, 1% controls)',
      (performance.now() - t0) / 1000,
      's',
      `${made.controls.toLocaleString('en-US')} controls, ${made.pastK.toLocaleString('en-US')} targets past k`,
    )
    await projectView(file, m.datasetId, 'Project view with a plan', 'Project-plan')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The Project view's one call, on a fresh process's connection (cold: the server answers nothing
 * else meanwhile; QA walk 3 found it took a minute at 1M targets, saves waiting behind it), then
 * twice more (warm). FACTLAB_BENCH_PROFILE=views.cpuprofile profiles the cold call
 * (views-Project.cpuprofile).
 */
async function projectView(file: string, datasetId: number, name: string, part = 'Project'): Promise<void> {
  const ctx = new AppContext(file, { driver: 'browser' })
  try {
    const handlers = buildHandlers(ctx)
    const open = () => timed(() => call(handlers, 'projects.dashboard', { datasetId }))
    const profile = windowProfile(part)
    const c0 = mainThreadCpuMs()
    const f0 = mainThreadFaults()
    profile.start()
    const coldMs = await open()
    profile.stop()
    const cold = mainThreadCpuMs() - c0
    const f1 = mainThreadFaults()
    figure(`${name}, cold`, coldMs, 'ms', 1000)
    if (f0 !== null && f1 !== null)
      info(
        `${name}, cold: memory touched for the first time by the main thread`,
        ((f1 - f0) * 4096) / 2 ** 20,
        'MB',
        `${(f1 - f0).toLocaleString('en')} page faults`,
      )
    const c1 = mainThreadCpuMs()
    figure(`${name}, warm`, Math.min(await open(), await open()), 'ms', 100)
    info(`${name}, CPU time of the main thread, cold / warm ×2`, cold, 'ms', `${mainThreadCpuMs() - c1} ms`)
    rss(`the ${name}`)
  } finally {
    ctx.close()
  }
}

/**
 * The Parquet export of the million-target workspace, a step of its own so it can run alone
 * (`npm run bench -- --only benchMillionParquet`); `--only million` runs it with the others.
 */
export async function benchMillionParquet(): Promise<void> {
  const m = millionWorkspace()
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-million-'))
  try {
    const file = copyOf(m, join(dir, 'million.factlab'))
    await parquet(file, m.datasetId, dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const GATE_TITLE = 'Who is labelling?'

/**
 * Server start (workspace opened, checked, migrated) to the first screen a person can use, then
 * where that time went: the phases read from the page's Performance API (firstScreen.ts), the
 * server's CPU over the window, and the page's own main-thread time from Chromium's metrics.
 */
async function openInBrowser(file: string): Promise<void> {
  const exe = findChromium()
  const renderer = resolve('out/renderer')
  if (!exe || !existsSync(join(renderer, 'index.html'))) {
    const t = await timed(() => new AppContext(file, { driver: 'browser' }).close())
    figure('open the workspace (no browser: Chromium or out/renderer missing)', t, 'ms', 1000)
    return
  }
  const browser = await launchChromium(exe)
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.addInitScript(gateMarkScript(GATE_TITLE, ANNOTATORS(1)[0]!))
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    const server = await serverOwnProcess(file, renderer)
    const started = server.startMs
    try {
      await page.goto(server.url)
      const gate = page.getByRole('dialog', { name: GATE_TITLE })
      const first = gate.getByRole('button', { name: ANNOTATORS(1)[0]!, exact: true })
      // The figure is the page's own mark (gateMark.ts); Playwright's locator, which looks at
      // intervals, confirms that what was marked is the accessible gate, and waits for the frame.
      await first.waitFor()
      await page.waitForFunction(() => (globalThis as { __gateDrawn?: number }).__gateDrawn !== undefined)
      const found = Date.now() - server.startedAt
      const serverCpu = (await server.usage()).cpuMs
      const timings = await page.evaluate(pageTimings)
      const navigationStart = timings.origin - server.startedAt
      const seen = navigationStart + timings.gateDrawn
      figure('open to the first screen (who is labelling?)', seen, 'ms', 1000)
      const phases = firstScreenPhases(timings, { serverStarted: started, navigationStart, seen })
      for (const p of phases) info(`  of which ${p.name}`, p.ms, 'ms')
      info("  the bench's locator found it (it looks after 20, 50, 100, 100, then every 500 ms)", found, 'ms')
      info('  the server process CPU over the window', serverCpu, 'ms', `${timings.calls.length} calls`)
      const metrics = (await cdp.send('Performance.getMetrics')).metrics
      const secs = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000
      info(
        "  the page's main thread busy, from its navigation",
        secs('TaskDuration'),
        'ms',
        `script ${secs('ScriptDuration').toFixed(0)} ms, style ${secs('RecalcStyleDuration').toFixed(0)} ms, layout ${secs('LayoutDuration').toFixed(0)} ms`,
      )
      const t1 = performance.now()
      await first.click()
      await page.getByRole('article', { name: 'million', exact: true }).first().waitFor()
      figure('annotator chosen to the datasets list', performance.now() - t1, 'ms', 1000)
      info('RSS after opening in the browser (server process)', (await server.usage()).rssMB, 'MB')
    } finally {
      await server.close()
    }
  } finally {
    await browser.close()
  }
}

/**
 * The server in a process of its own (million/serverChild.ts, bundled beside this file by
 * scripts/bench.js, or run through tsx from the sources), as `npm run serve` runs it. `startedAt`
 * is when its start began, on the wall clock the page's time origin is also on.
 */
async function serverOwnProcess(
  file: string,
  rendererDir: string,
): Promise<{
  url: string
  startedAt: number
  startMs: number
  usage(): Promise<{ cpuMs: number; rssMB: number }>
  close(): Promise<void>
}> {
  const here = dirname(fileURLToPath(import.meta.url))
  const bundled = join(here, '_serverChild.js')
  const child = existsSync(bundled)
    ? fork(bundled, [file, rendererDir], { execArgv: [] })
    : fork(join(here, 'million', 'serverChild.ts'), [file, rendererDir], { execArgv: ['--import', 'tsx'] })
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = () => reject(new Error('the bench server exited before it answered'))
      child.once('exit', onExit)
      child.once('message', (m) => {
        child.off('exit', onExit)
        resolve(m as T)
      })
    })
  const started = await next<{ url: string; startedAt: number; startMs: number }>()
  return {
    ...started,
    usage: async () => {
      const answer = next<{ cpuMs: number; rssMB: number }>()
      child.send('usage')
      return await answer
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.send('close')
      }),
  }
}

/** Runs in the page: its navigation and resource timings, in its own ms, and its time origin. */
function pageTimings(): PageTimings & { origin: number; gateDrawn: number } {
  // The page's Performance API, typed here: the bench compiles against Node's types, not the DOM's.
  type Entry = { name: string; startTime: number; responseStart: number; responseEnd: number }
  const entries = (type: string) =>
    (performance as unknown as { getEntriesByType(t: string): Entry[] }).getEntriesByType(type)
  const path = (url: string) => new URL(url).pathname
  const call = '/api/call/'
  const resources = entries('resource')
  return {
    origin: performance.timeOrigin,
    gateDrawn: (globalThis as unknown as { __gateDrawn: number }).__gateDrawn,
    firstByte: entries('navigation')[0]?.responseStart ?? 0,
    assets: resources
      .filter((r) => path(r.name).startsWith('/assets/'))
      .map((r) => ({ name: path(r.name), start: r.startTime, end: r.responseEnd })),
    calls: resources
      .filter((r) => path(r.name).startsWith(call))
      .map((r) => ({ name: path(r.name).slice(call.length), start: r.startTime, end: r.responseEnd })),
  }
}

/**
 * The word index on disk, the in-memory word list that finds pieces of words, and (with
 * FACTLAB_BENCH_TRIGRAM=1, about a minute) what a trigram index of the same texts would take.
 */
function searchIndexSizes(ctx: AppContext): void {
  const db = ctx.workspace.db
  const size = (like: string) =>
    (db
      .prepare('SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name GLOB ?')
      .pluck()
      .get(like) as number) /
    2 ** 20
  info('word index on disk (items, candidates, units)', size('*_fts*'), 'MB')
  // Migration 0210's one row per item, part of the figure above; none before it.
  info('of which the item-level index of the units (one-word searches)', size('item_units_fts*'), 'MB')
  const t0 = performance.now()
  const list = loadWords(db)
  info(
    `word list for searches inside words (${list.words.toLocaleString('en-US')} words read from the index's leaves, once)`,
    performance.now() - t0,
    'ms',
  )
  info('word list in memory (nothing on disk)', list.chars / 2 ** 20, 'M characters')
  if (process.env.FACTLAB_BENCH_TRIGRAM !== '1') {
    note('trigram index size: set FACTLAB_BENCH_TRIGRAM=1 to build one on the copy and measure it')
    return
  }
  const t1 = performance.now()
  for (const [table, cols] of [
    ['items', 'ext_id, question, reference'],
    ['candidates', 'text'],
    ['units', 'text'],
  ] as const) {
    db.exec(`CREATE VIRTUAL TABLE ${table}_tri USING fts5(${cols}, content = '${table}', content_rowid = 'id',
      tokenize = 'trigram remove_diacritics 1');
      INSERT INTO ${table}_tri (${table}_tri) VALUES ('rebuild');`)
  }
  info(
    'a trigram index of the same texts, on disk',
    size('*_tri*'),
    'MB',
    `built in ${((performance.now() - t1) / 1000).toFixed(0)} s`,
  )
}

async function itemsView(handlers: Handlers, datasetId: number, me: number, items: number): Promise<void> {
  const page = (status: string, offset = 0, search = '', variant: string | null = null) =>
    call(handlers, 'datasets.items', {
      datasetId,
      annotatorId: me,
      filter: { status, variant, search },
      offset,
      limit: 100,
    })
  const cases: [string, (i: number) => unknown][] = [
    ['first page', () => page('all')],
    ['scrolling (consecutive pages)', (i) => page('all', 100 * (i + 1))],
    ['a page half way down', () => page('all', Math.floor(items / 2))],
    ['last page', () => page('all', items - 100)],
    ['not yet labelled by me', () => page('unlabelled')],
    ['disputed', () => page('disputed')],
    ['judges disagree', () => page('judgeDisagreement')],
    ['one variant', () => page('all', 0, '', 'poor_answer')],
    ['not labelled by me, one variant', () => page('unlabelled', 0, '', 'poor_answer')],
    ['search for a common word ("river")', () => page('all', 0, 'river')],
    ['search for a rarer word ("orchard")', () => page('all', 0, 'orchard')],
    ['search for two words', () => page('all', 0, 'river orchard')],
    ['search inside a word ("rchar")', () => page('all', 0, 'rchar')],
  ]
  for (const [name, fn] of cases) {
    const t = await p99(20, fn)
    // On a busy machine the wall clock swings; the CPU time says what the call itself costs.
    figure(`items view: ${name}, p99`, t.p99, 'ms', 200, 'max', `CPU ${t.cpu.toFixed(0)} ms a call`)
  }
}

async function nextUnit(ctx: AppContext, handlers: Handlers, datasetId: number, me: number): Promise<void> {
  const times: number[] = []
  let after: number | undefined
  for (let i = 0; i < 500; i++) {
    const t0 = performance.now()
    const next = (await call(handlers, 'annotate.next', {
      datasetId,
      annotatorId: me,
      ...(after === undefined ? {} : { afterTargetId: after }),
    })) as { targetId: number | null }
    times.push(performance.now() - t0)
    if (next.targetId === null) break
    // Labelled as a person would, so the queue moves on like theirs.
    ctx.workspace.labels.save({ targetId: next.targetId, annotatorId: me, verdict: 'true', seconds: 2 })
    after = next.targetId
  }
  times.sort((a, b) => a - b)
  figure(`annotate.next (${times.length} calls, each after a save), p99`, percentile(times, 99), 'ms', 5)
}

/** Agreement and Compare: every call the view makes, on a fresh process's connection (cold) and again (warm). */
async function views(file: string, datasetId: number): Promise<void> {
  const viewCalls: Record<string, [string, unknown][]> = {
    Agreement: [
      ['agreement.summary', { datasetId }],
      ['agreement.queue', { datasetId, status: 'open', limit: 50 }],
    ],
    Compare: [
      ['metrics.compare', { datasetId }],
      ['metrics.disagreements', { datasetId, limit: 200 }],
      ['metrics.labelNext', { datasetId, limit: 25 }],
    ],
  }
  const faultMicros = pageFaultMicros()
  if (faultMicros !== null)
    info('this machine: a page of fresh memory touched (64 MB, a byte a page)', faultMicros, 'µs')
  for (const [view, calls] of Object.entries(viewCalls)) {
    const ctx = new AppContext(file, { driver: 'browser' })
    try {
      const handlers = buildHandlers(ctx)
      const open = () =>
        timed(async () => {
          for (const [name, input] of calls) await call(handlers, name, input)
        })
      // FACTLAB_BENCH_PROFILE=views.cpuprofile profiles each cold open (views-Compare.cpuprofile).
      const profile = windowProfile(view)
      const c0 = mainThreadCpuMs()
      const f0 = mainThreadFaults()
      profile.start()
      const coldMs = await open()
      profile.stop()
      figure(`${view} view, cold`, coldMs, 'ms', 1000)
      const cold = mainThreadCpuMs() - c0
      const f1 = mainThreadFaults()
      const c1 = mainThreadCpuMs()
      figure(`${view} view, warm`, Math.min(await open(), await open()), 'ms', 100)
      info(
        `${view} view, CPU time of the main thread, cold / warm ×2`,
        cold,
        'ms',
        `${mainThreadCpuMs() - c1} ms`,
      )
      if (f0 !== null && f1 !== null && faultMicros !== null)
        info(
          `${view} view, cold: memory touched for the first time by the main thread`,
          ((f1 - f0) * 4096) / 2 ** 20,
          'MB',
          `${(f1 - f0).toLocaleString('en')} page faults, about ${(((f1 - f0) * faultMicros) / 1000).toFixed(0)} ms at this machine's ${faultMicros.toFixed(1)} µs a fault`,
        )
      rss(`the ${view} view`)
    } finally {
      ctx.close()
    }
  }
  await projectView(file, datasetId, 'Project view (projects.dashboard)')
  const ctx = new AppContext(file, { driver: 'browser' })
  try {
    // The Judges view reloads its run list every two seconds, so each load costs the main thread.
    const handlers = buildHandlers(ctx)
    const list = () => timed(() => call(handlers, 'judges.runs', { datasetId }))
    info('Judges view: the run list, first load', await list(), 'ms', 'twenty runs of 50k verdicts')
    info('Judges view: the run list, reloaded', Math.min(await list(), await list()), 'ms')
  } finally {
    ctx.close()
  }
}

/**
 * Export of every target to Parquet against hyparquet-writer writing the same rows from memory
 * with the same options (row group size, writer name; codec and statistics at their defaults on
 * both sides). The workspace's background integrity check is awaited first so it does not share
 * the CPU with the timed export. CPU seconds are printed beside the wall clock: on a loaded
 * machine they say more about the work each side does.
 */
async function parquet(file: string, datasetId: number, dir: string): Promise<void> {
  const ctx = new AppContext(file, { driver: 'browser' })
  try {
    const ws = ctx.workspace
    await ws.integrity
    const cpu = (from: NodeJS.CpuUsage) => {
      const c = process.cpuUsage(from)
      return (c.user + c.system) / 1e6
    }
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    await exportDataset(ws, { datasetId, format: 'parquet', outDir: join(dir, 'export') })
    const exportMs = performance.now() - t0
    const exportCpu = cpu(c0)
    rss('the Parquet export')
    const columns = annotatorColumns(ws.db, datasetId)
    const features = targetFeatures(columns)
    // Where the floor of a one-thread export lies: reading the same rows into column batches
    // with nothing written. The export cannot take less than this plus the writer's own work.
    const c2 = process.cpuUsage()
    for (const _ of targetBatches(ws.db, datasetId, getDataset(ws.db, datasetId).labelSchema, columns));
    const readCpu = cpu(c2)
    const rows = [...targetRows(ws.db, datasetId, getDataset(ws.db, datasetId).labelSchema, columns)]
    const t1 = performance.now()
    const c1 = process.cpuUsage()
    const pending = parquetWriteRows({
      writer: fileWriter(join(dir, 'floor.parquet')),
      rows,
      columns: features.map((f) => ({
        name: f.name,
        type: f.dtype === 'int32' ? 'INT32' : 'STRING',
        nullable: true,
      })),
      rowGroupSize: 10_000,
      createdBy: 'FactLab',
    })
    if (pending) await pending
    const floorMs = performance.now() - t1
    const floorCpu = cpu(c1)
    info(`Parquet export of ${rows.length.toLocaleString('en-US')} targets`, exportMs / 1000, 's')
    info('hyparquet-writer writing the same rows from memory', floorMs / 1000, 's')
    info('CPU time: the export', exportCpu, 's', `the writer from memory ${floorCpu.toFixed(2)} s`)
    infoRate('CPU time ratio (writer from memory / export)', floorCpu / exportCpu, '')
    info('CPU time: reading the rows into columns alone (no writing)', readCpu, 's')
    figure('Parquet export rate / writer from memory', floorMs / exportMs, '', 0.8, 'min')
    rss('the rows held in memory')
  } finally {
    ctx.close()
  }
}
