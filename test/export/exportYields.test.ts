import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { events } from '../../src/shared/contract/events'
import { copyOf, millionWorkspace } from '../bench/million/generate'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** 2,500 items × 10 facts: 25,000 targets, three batches of rows, made by the bench's generator. */
const SPEC = { items: 2500, unitsPerItem: 10, annotators: 2, runs: 1, runItems: 10 }
const TARGETS = SPEC.items * SPEC.unitsPerItem

type Progress = ReturnType<(typeof events)['exports.progress']['parse']>

const opened: AppContext[] = []
afterEach(() => {
  for (const ctx of opened.splice(0)) ctx.close()
})

function generated() {
  const dir = tmp()
  const file = copyOf(millionWorkspace(SPEC), join(dir, 'w.factlab'))
  const ctx = new AppContext(file, { driver: 'browser' })
  opened.push(ctx)
  const handlers = buildHandlers(ctx)
  const call = (name: string, input: unknown) => dispatch(handlers, name, input)
  return { dir, ctx, call }
}

/**
 * Everything that happened, in order: each progress event of the export, and the moment another
 * request (sent as a new task, as a request from the browser arrives) was answered.
 */
function recorder(ctx: AppContext, exportId: string, onFirstRows: () => void) {
  const log: (Progress | 'other answered')[] = []
  let sent = false
  const stop = ctx.events.subscribe((name, payload) => {
    if (name !== 'exports.progress') return
    const p = events['exports.progress'].parse(payload)
    if (p.exportId !== exportId) return
    log.push(p)
    if (!sent && p.phase === 'rows' && p.done < p.total) {
      sent = true
      setImmediate(onFirstRows)
    }
  })
  return { log, stop }
}

describe('a large export shares the process', () => {
  it('answers another request while it writes, and reports rows written rising to the total', async () => {
    const { dir, ctx, call } = generated()
    const rec = recorder(ctx, 'e1', () => {
      void call('datasets.list', {}).then((r) => {
        expect(r.ok).toBe(true)
        rec.log.push('other answered')
      })
    })
    const out = join(dir, 'out')
    const r = await call('exports.dataset', { datasetId: 1, format: 'csv', outDir: out, exportId: 'e1' })
    rec.stop()
    expect(r.ok).toBe(true)

    const lastRows = rec.log.findIndex(
      (e) => e !== 'other answered' && e.phase === 'rows' && e.done === e.total,
    )
    const answered = rec.log.indexOf('other answered')
    // The listing was answered while rows were still being written, not after the export.
    expect(answered).toBeGreaterThan(0)
    expect(answered).toBeLessThan(lastRows)

    const rows = rec.log.filter((e): e is Progress => e !== 'other answered' && e.phase === 'rows')
    const done = rows.map((e) => e.done)
    expect(done.length).toBeGreaterThanOrEqual(2)
    for (let k = 1; k < done.length; k++) expect(done[k]!).toBeGreaterThan(done[k - 1]!)
    expect(done.at(-1)).toBe(TARGETS)
    expect(rows.every((e) => e.total === TARGETS)).toBe(true)
    // Then the card, last of all.
    const card = rec.log.filter((e): e is Progress => e !== 'other answered' && e.phase === 'card')
    expect(card.at(-1)).toMatchObject({ done: 1, total: 1 })
    expect(rec.log.at(-1)).toMatchObject({ phase: 'card', done: 1 })

    const lines = readFileSync(join(out, 'data.csv'), 'utf8').trim().split('\r\n')
    expect(lines).toHaveLength(TARGETS + 1)
    expect(existsSync(join(out, 'README.md'))).toBe(true)
  })

  for (const format of ['csv', 'parquet'] as const)
    it(`a cancelled ${format} export says so and leaves no data file, partial or whole`, async () => {
      const { dir, ctx, call } = generated()
      let cancelled: unknown
      const rec = recorder(ctx, 'e2', () => {
        void call('exports.cancel', { exportId: 'e2' }).then((r) => {
          cancelled = r.ok ? r.value : r.error
        })
      })
      const out = join(dir, 'out')
      const r = await call('exports.dataset', { datasetId: 1, format, outDir: out, exportId: 'e2' })
      rec.stop()
      expect(cancelled).toEqual({ cancelled: true })
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error.message).toContain('The export was cancelled')
      // The rows stopped short of the total, and no card was written.
      expect(rec.log.some((e) => e !== 'other answered' && e.phase === 'rows' && e.done === TARGETS)).toBe(
        false,
      )
      expect(rec.log.some((e) => e !== 'other answered' && e.phase === 'card')).toBe(false)
      const left = existsSync(out) ? readdirSync(out) : []
      expect(left).toEqual([])
      expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
      // The id is free again, and cancelling an export that is over says nothing was under way.
      const again = await call('exports.cancel', { exportId: 'e2' })
      expect(again).toEqual({ ok: true, value: { cancelled: false } })
    })
})
