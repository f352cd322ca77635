import { describe, expect, it } from 'vitest'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import type { RunInfo } from '../../src/shared/contract/runs'
import { testApps } from '../helpers/app'

const openApp = testApps()

describe('repeats waiting their turn', () => {
  it('stay paused when paused before their turn, instead of starting once the one before ends', async () => {
    const { ctx, value } = openApp()
    const { datasetId } = loadDemoIfEmpty(ctx.workspace)
    const config = await value<{ id: number }>('judges.saveConfig', {
      name: 'rouge-L',
      provider: 'lexical',
      model: 'rougeL',
      baseUrl: null,
      method: 'lexical',
      settings: { lexicalMetric: 'rougeL', lexicalThreshold: 0.3 },
    })
    const { runIds } = await value<{ runIds: number[] }>('judges.start', {
      datasetId,
      configId: config.id,
      repeat: 2,
    })
    const [first, second] = runIds as [number, number]
    await value('judges.pause', { runId: second })
    const runs = async () => {
      const all = await value<RunInfo[]>('judges.runs', { datasetId })
      return new Map(all.map((r) => [r.id, r]))
    }
    // The first repeat's end and the second's start happen in one go, so once the first is
    // done the second has either started or been left alone for good.
    for (let seen = await runs(); seen.get(first)?.active; seen = await runs())
      await new Promise((resolve) => setTimeout(resolve, 20))
    const after = await runs()
    expect(after.get(first)?.status).toBe('done')
    expect(after.get(second)).toMatchObject({ status: 'paused', active: false })
  })
})
