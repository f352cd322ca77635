/**
 * A diagnostic, not a figure: what each timed press of `benchLabelInChromium` was, and why the
 * slow ones were slow. It runs the same presses in the same rhythm (the same page listener, the
 * same waits) and prints, per press, its kind (a label in the same variant, one that switched to
 * the next variant, the first label of a new item), its render and its wait for the frame. With
 * FACTLAB_DIAG_TRACE=N it then traces N more presses (CDP, with the compositor's categories) and
 * prints, per press, where the key fell against the display's frame ticks: how long after the
 * last tick it came, whether its frame began at once (a missed frame handed over as the page asked)
 * or waited for the next tick, and how long from there to the page's animation-frame callbacks.
 *
 *   npm run bench -- --only benchLabelPresses        skipped in a whole `npm run bench`
 *   FACTLAB_DIAG_RENDERER=/other/out/renderer        another build's renderer (A/B)
 *   FACTLAB_DIAG_WHICH=small|1m  FACTLAB_DIAG_OUT=/tmp/x   (writes /tmp/x-small.json …)
 *   FACTLAB_DIAG_PACE=machine                      keys as soon as "Saved" shows (labelPage.ts)
 *   FACTLAB_DIAG_CATEGORIES=v8,disabled-by-default-v8.compile   more trace categories
 *   FACTLAB_DIAG_PROFILE=/tmp/p                    a CPU profile of the page over the timed presses
 *                                                  (/tmp/p-1M.cpuprofile …), for DevTools or speedscope
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { Workspace } from '../../src/main/app/workspace'
import { seedBulk } from '../annotate/bulk'
import { LABEL_MARK, labelKeys, type TraceEvent, traceOf } from './frameTrace'
import { openLabelPage, type Pace, pressLabels } from './labelPage'
import { copyOf, millionWorkspace } from './million/generate'
import { note } from './record'

const env = process.env
const RENDERER = env.FACTLAB_DIAG_RENDERER ?? 'out/renderer'
const PRESSES = Number(env.FACTLAB_DIAG_PRESSES ?? 60)
const TRACE = Number(env.FACTLAB_DIAG_TRACE ?? 0)
const WHICH = env.FACTLAB_DIAG_WHICH ?? 'both'
const OUT = env.FACTLAB_DIAG_OUT ?? join(tmpdir(), 'factlab-label-presses')
const PACE: Pace = env.FACTLAB_DIAG_PACE === 'machine' ? 'machine' : 'annotator'
const PROFILE = env.FACTLAB_DIAG_PROFILE ?? ''
/** The compositor's and the display's frame events, beside the timeline (and any of FACTLAB_DIAG_CATEGORIES). */
const FRAME_CATEGORIES = [
  'disabled-by-default-devtools.timeline.frame',
  'cc',
  'viz',
  'benchmark',
  ...(env.FACTLAB_DIAG_CATEGORIES?.split(',').filter(Boolean) ?? []),
]

/** One key press as the page saw it; render and frame stay null for a label that kept the focus. */
interface Press {
  tab: number
  tabAfter?: number
  render: number | null
  frame: number | null
}

export async function benchLabelPresses(): Promise<void> {
  if (!process.argv.some((a) => a.includes('benchLabelPresses'))) {
    note('skipped: a diagnostic (npm run bench -- --only benchLabelPresses)')
    return
  }
  const dir = mkdtempSync(join(tmpdir(), 'factlab-diag-'))
  try {
    if (WHICH !== '1m') await run('small', join(dir, 'w.factlab'), (ws) => seedBulk(ws, 200))
    if (WHICH !== 'small') {
      const m = millionWorkspace()
      await run('1M', copyOf(m, join(dir, 'million.factlab')), () => m.datasetId)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The page's CPU profile over `presses` (CDP Profiler, sampled every 100 µs): which functions the
 * key's task spends its time in, which a trace of the timeline does not say.
 */
async function profileOf(page: Page, presses: () => Promise<void>): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
  await presses()
  const { profile } = await cdp.send('Profiler.stop')
  await cdp.detach()
  return profile
}

const ms = (x: number | null | undefined) => (x ?? Number.NaN).toFixed(1).padStart(5)

/** Kind of each press: same variant, a switch to the next one, or the first after Enter. */
function kinds(presses: Press[]): string[] {
  let afterEnter = false
  return presses.map((p) => {
    if (p.render === null) {
      afterEnter = true
      return 'kept focus (untimed)'
    }
    const k = (p.tab !== p.tabAfter ? 'variant switch' : 'same variant') + (afterEnter ? ', new item' : '')
    afterEnter = false
    return k
  })
}

async function run(name: string, file: string, seed: (ws: Workspace) => number): Promise<void> {
  const { page, close } = await openLabelPage(file, seed, RENDERER)
  try {
    // The bench's listener (annotate.ts), recording per press the variant tab before and after.
    await page.evaluate(`(() => {
      window.__presses = []
      window.__mark = false
      let t0 = 0, from = null, rendered = false, cur = null
      const selected = () => document.querySelector('.unit[aria-selected="true"]')?.id ?? null
      const tab = () => [...document.querySelectorAll('[role="tab"]')].findIndex((t) => t.getAttribute('aria-selected') === 'true')
      window.addEventListener('keydown', (e) => {
        if (e.key !== '1' && e.key !== '2') { t0 = 0; return }
        t0 = performance.now(); from = selected(); rendered = false
        cur = { tab: tab(), render: null, frame: null }
        window.__presses.push(cur)
        if (window.__mark) performance.mark('${LABEL_MARK}')
      }, true)
      new MutationObserver(() => {
        if (!t0) return
        const labelled = document.getElementById(from)
        if (!rendered && selected() !== from && (!labelled || labelled.dataset.verdict)) {
          rendered = true
          const start = t0, c = cur
          c.render = performance.now() - start
          c.tabAfter = tab()
          requestAnimationFrame(() => { c.frame = performance.now() - start })
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    })()`)
    if (PROFILE) {
      const profile = await profileOf(page, () => pressLabels(page, PRESSES, PACE))
      writeFileSync(`${PROFILE}-${name}.cpuprofile`, JSON.stringify(profile))
    } else await pressLabels(page, PRESSES, PACE)
    const presses = (await page.evaluate('window.__presses')) as Press[]
    report(name, presses)
    writeFileSync(`${OUT}-${name}.json`, JSON.stringify(presses))
    if (TRACE > 0) {
      await page.evaluate('(() => { window.__mark = true; window.__presses = [] })()')
      const events = await traceOf(page, () => pressLabels(page, TRACE, PACE), FRAME_CATEGORIES)
      const traced = (await page.evaluate('window.__presses')) as Press[]
      writeFileSync(`${OUT}-${name}-trace.json`, JSON.stringify(events))
      writeFileSync(`${OUT}-${name}-traced.json`, JSON.stringify(traced))
      againstTicks(name, traced, events)
    }
  } finally {
    await close()
  }
}

function report(name: string, presses: Press[]): void {
  const kind = kinds(presses)
  const timed = presses.map((p, i) => ({ ...p, i, kind: kind[i]! })).filter((p) => p.frame !== null)
  const frames = timed.map((p) => p.frame!).sort((a, b) => a - b)
  const at = (q: number) => frames[Math.min(frames.length - 1, Math.floor(q * frames.length))]
  note(
    `${name}: ${frames.length} timed labels; frame p50 ${ms(at(0.5))}, p90 ${ms(at(0.9))}, max ${ms(at(1))} ms`,
  )
  const byKind = new Map<string, number[]>()
  for (const p of timed) byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), p.render!])
  for (const [k, r] of byKind) {
    r.sort((a, b) => a - b)
    note(
      `  ${k.padEnd(26)} ${String(r.length).padStart(3)} presses, render p50 ${ms(r[r.length >> 1])}, max ${ms(r.at(-1))}`,
    )
  }
  for (const p of [...timed].sort((a, b) => b.frame! - a.frame!).slice(0, 8))
    note(
      `  press ${String(p.i).padStart(2)} ${p.kind.padEnd(26)} frame ${ms(p.frame)} = render ${ms(p.render)} + wait ${ms(p.frame! - p.render!)}`,
    )
}

const end = (e: TraceEvent) => e.ts + (e.dur ?? 0)
const last = (sorted: number[], before: number) => sorted.filter((t) => t <= before).at(-1) ?? Number.NaN

/** Each traced press against the display's frame ticks (viz) and the page compositor's frames. */
function againstTicks(name: string, presses: Press[], trace: TraceEvent[]): void {
  const keys = labelKeys(trace).sort((a, b) => a.ts - b.ts)
  const page = keys[0]
  if (!page || keys.length !== presses.length) {
    note(`${name}: ${keys.length} traced keys for ${presses.length} presses, not compared`)
    return
  }
  const times = (n: string, onPage: boolean) =>
    trace
      .filter((e) => e.name === n && (!onPage || e.pid === page.pid))
      .map((e) => e.ts)
      .sort((a, b) => a - b)
  const ticks = times('DelayBasedBeginFrameSource::OnTimerTick', false)
  const mainFrames = trace
    .filter((e) => e.name === 'ProxyMain::BeginMainFrame' && e.pid === page.pid && e.tid === page.tid)
    .sort((a, b) => a.ts - b.ts)
  const rafs = trace.filter(
    (e) => e.name === 'FireAnimationFrame' && e.pid === page.pid && e.tid === page.tid,
  )
  const kind = kinds(presses)
  note(
    `${name}, traced: key after the display's last tick | the frame began at that tick's successor (+ms after the key) or at once | from there to the last rAF`,
  )
  presses.forEach((p, i) => {
    if (p.frame === null) return
    const key = keys[i]!
    const frame = mainFrames.find((f) => f.ts > key.ts)
    if (!frame) return
    const frameTick = last(ticks, frame.ts)
    // A frame whose tick came before the key was a missed frame handed over at once.
    const from = Math.max(frameTick, key.ts)
    const lastRaf = rafs.filter((r) => r.ts >= frame.ts && r.ts <= end(frame)).at(-1)
    const began = frameTick > key.ts ? `next tick +${ms((frameTick - key.ts) / 1000)}` : 'at once          '
    note(
      `  ${String(i).padStart(2)} ${kind[i]!.padEnd(26)} frame ${ms(p.frame)} render ${ms(p.render)} | ${ms((key.ts - last(ticks, key.ts)) / 1000)} | ${began} | ${ms(((lastRaf ? end(lastRaf) : frame.ts) - from) / 1000)}`,
    )
  })
}
