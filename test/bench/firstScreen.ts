/**
 * Where "open to the first screen" goes, from the page's own Performance API (navigation and
 * resource timings) and the bench's clock: the server's start, the navigation to index.html's
 * first byte (a new renderer process for the page's origin), the page asking for its scripts,
 * the scripts arriving, the app evaluated and drawn once (its first call leaves), the gate's calls
 * answered, and the gate drawn. The phases follow one another and add up to the whole. Pure, so
 * tested on its own.
 */

/** What the page reports, in its own milliseconds since its navigation began. */
export interface PageTimings {
  /** index.html's first byte. */
  firstByte: number
  /** Each script and style sheet the page loaded before the gate: when it was asked for and had arrived. */
  assets: readonly { name: string; start: number; end: number }[]
  /** Each call to the server: when it left and when its answer had arrived. */
  calls: readonly { name: string; start: number; end: number }[]
}

export interface Phase {
  name: string
  ms: number
}

/** The calls whose answers the gate lists its names from. */
export const GATE_CALLS: readonly string[] = ['workspace.annotators', 'workspace.labellers']

/**
 * The scripts the first screen waited for: those asked for before its first call left. A chunk
 * fetched later (a view's script loaded when the page is idle) is not on the way to the gate,
 * and counting it would put everything after it under "scripts loaded".
 */
export function firstScreenScripts(page: PageTimings): PageTimings['assets'] {
  const firstCall = Math.min(...page.calls.map((c) => c.start))
  return page.assets.filter((a) => /\.js$/.test(a.name) && a.start < firstCall)
}

/**
 * The phases of one open. Times in ms on the bench's clock: `serverStarted` after the server's
 * start began, `navigationStart` the page's time origin, `seen` when the gate's first name was
 * drawn. A phase the page did not report (no call yet, say) is zero and the next takes its time.
 */
export function firstScreenPhases(
  page: PageTimings,
  at: { serverStarted: number; navigationStart: number; seen: number },
): Phase[] {
  const onBench = (ms: number) => at.navigationStart + ms
  const scripts = firstScreenScripts(page)
  const gateCalls = page.calls.filter((c) => GATE_CALLS.includes(c.name))
  const marks: [string, number][] = [
    ['server start (open the file, check, migrate)', at.serverStarted],
    ['navigation to the first byte of index.html', onBench(page.firstByte)],
    [
      'index.html to its scripts asked for (the renderer process starting, the page parsed)',
      onBench(Math.min(...scripts.map((s) => s.start))),
    ],
    ['scripts loaded', onBench(Math.max(page.firstByte, ...scripts.map((s) => s.end)))],
    [
      'scripts run and the app drawn once, to its first call',
      onBench(Math.min(...page.calls.map((c) => c.start))),
    ],
    ["the gate's calls answered", onBench(Math.max(...gateCalls.map((c) => c.end)))],
    ['the gate drawn', at.seen],
  ]
  const phases: Phase[] = []
  let last = 0
  for (const [name, t] of marks) {
    const until = Number.isFinite(t) ? Math.min(Math.max(t, last), at.seen) : last
    phases.push({ name, ms: until - last })
    last = until
  }
  return phases
}
