import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()
let ctx: AppContext | null = null
afterEach(() => ctx?.close())

function app() {
  const dir = tmp()
  const fx = makeFixture(dir, { items: 2, variants: ['answer', 'poor_answer'], facts: 1 })
  fx.labelAll('ana', ['true', 'false', 'true', 'false'])
  fx.run('m', ['true', 'true', 'false', 'false'])
  fx.db.close()
  ctx = new AppContext(freshWorkspaceFile(join(dir, 'w.factlab')), { driver: 'browser' })
  return { handlers: buildHandlers(ctx), datasetId: fx.datasetId, targets: fx.targets }
}

describe('metrics calls', () => {
  it('return contract-valid results the Compare view can show', async () => {
    const { handlers, datasetId, targets } = app()
    const compare = await dispatch(handlers, 'metrics.compare', { datasetId })
    expect(compare.ok).toBe(true)
    const d = await dispatch(handlers, 'metrics.disagreements', { datasetId })
    expect(d).toMatchObject({ ok: true, value: { total: 2 } })
    const next = await dispatch(handlers, 'metrics.labelNext', { datasetId })
    expect(next.ok).toBe(true)
    // Item level: one response per (item, variant), the run's share supported against gold's.
    const items = await dispatch(handlers, 'metrics.itemLevel', { datasetId, replicates: 50 })
    expect(items).toMatchObject({ ok: true, value: { items: [{}, {}, {}, {}], replicates: 50 } })
    if (items.ok) {
      const judge = (
        items.value as { correlations: { source: string; score: string; overall: { n: number } }[] }
      ).correlations.filter((c) => c.source === 'judge')
      expect(judge).toMatchObject([{ score: 'share-supported', overall: { n: 4 } }])
    }
    expect(await dispatch(handlers, 'metrics.itemLevel', { datasetId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
    const report = await dispatch(handlers, 'metrics.report', { datasetId, format: 'html' })
    expect(report).toMatchObject({ ok: true, value: { mime: 'text/html', fileName: 'demo-metrics.html' } })
    if (d.ok) {
      const rows = (d.value as { rows: { targetId: number }[] }).rows
      expect(rows.map((r) => r.targetId)).toEqual([targets[1]!.id, targets[2]!.id])
    }
  })

  it('refuse an unknown dataset and bad input', async () => {
    const { handlers } = app()
    expect(await dispatch(handlers, 'metrics.compare', { datasetId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
    expect(await dispatch(handlers, 'metrics.report', { datasetId: 1, format: 'pdf' })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    })
  })
})
