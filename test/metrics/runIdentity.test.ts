import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { EnvKeyStore } from '../../src/main/providers/keys'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { getConfig, requestFromConfig, saveConfig } from '../../src/main/runs/configs'
import { createRuns } from '../../src/main/runs/create'
import { RunEngine } from '../../src/main/runs/engine'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { spreadRunsWords } from '../../src/shared/contract/metrics'
import { toJsonReport } from '../../src/shared/metricsJson'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from '../runs/helpers'
import { makeFixture } from './fixture'

const dir = tmpDirs()

describe('runs grouped by what they ran', () => {
  it('repeat spread keeps a config’s runs apart once the config was edited between them', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 4, 3)
    const ana = ensureAnnotator(ws.db, 'ana')
    const targets = ws.db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
    for (const [i, id] of targets.entries())
      ws.labels.save({ targetId: id, annotatorId: ana.id, verdict: i % 2 ? 'false' : 'true' })
    const engine = new RunEngine({ db: ws.db, registry: BUILTIN_REGISTRY, keys: new EnvKeyStore({}) })
    const run = async (configId: number, repeat: number) => {
      const ids = createRuns(ws.db, requestFromConfig(getConfig(ws.db, configId), datasetId), repeat)
      for (const id of ids) await engine.start(id)
      return ids
    }
    const config = saveConfig(ws.db, {
      name: 'baseline',
      provider: 'lexical',
      model: 'rougeL',
      baseUrl: null,
      method: 'lexical',
      settings: { lexicalThreshold: 0.5 },
    })
    const before = await run(config.id, 2)
    // The same config (same id) edited: a different threshold is a different judge.
    saveConfig(ws.db, { ...config, settings: { lexicalThreshold: 0.05 } })
    const after = await run(config.id, 1)
    // Pacing is not what a run measured: a repeat with another concurrency joins the first group.
    saveConfig(ws.db, { ...config, settings: { lexicalThreshold: 0.5, concurrency: 1 } })
    const paced = await run(config.id, 1)

    const m = computeDatasetMetrics(ws.db, datasetId, { replicates: 0 })
    const key = (runId: number) => m.judges.find((j) => j.runId === runId)!.configKey
    expect(key(before[0]!)).toBe(key(before[1]!))
    expect(key(after[0]!)).not.toBe(key(before[0]!))
    expect(m.spreads.map((s) => s.runIds)).toEqual([[...before, ...paced]])
    expect(m.spreads[0]!.errorRate!.runs).toBe(3)
    ws.close()
  })
})

describe('runs that measured nothing', () => {
  it('stay listed with their reason but out of McNemar, the spread and the Pareto front', () => {
    const fx = makeFixture(dir(), { items: 3, variants: ['answer'], facts: 2 })
    fx.labelAll('ana', ['true', 'false', 'true', 'false', 'true', 'false'])
    const good = fx.run('gpt-a', ['true', 'true', 'true', 'false', 'true', 'false'])
    const other = fx.run('gpt-b', ['true', 'false', 'false', 'false', 'true', 'true'])
    const errors = fx.run('gpt-c', ['ERR', 'ERR', 'ERR', 'ERR', 'ERR', 'ERR'])
    const failed = fx.run('gpt-d', ['true', 'false', 'true', 'false', 'true', 'false'])
    fx.db.prepare("UPDATE runs SET status = 'failed', error = 'Every call failed' WHERE id = ?").run(failed)
    const m = computeDatasetMetrics(fx.db, fx.datasetId, { replicates: 0 })
    const excluded = Object.fromEntries(m.judges.map((j) => [j.runId, j.excluded]))
    expect(excluded[good]).toBeNull()
    expect(excluded[other]).toBeNull()
    expect(excluded[errors]).toMatch(/no verdicts/)
    expect(excluded[failed]).toBe('the run failed: Every call failed')
    expect(m.mcnemar.map((r) => [r.a, r.b])).toEqual([[good, other]])
    expect(m.paretoFront).not.toContain(failed)
  })
})

describe('batch and call-by-call runs of one config', () => {
  it('are mode variants, not repeats: each mode has its own spread, naming the runs it spans', () => {
    const fx = makeFixture(dir(), { items: 4, variants: ['answer'], facts: 1 })
    fx.labelAll('ana', ['true', 'true', 'false', 'false'])
    const sync1 = fx.run('m', ['true', 'true', 'false', 'false'])
    const sync2 = fx.run('m', ['true', 'false', 'false', 'false'], { repeatIndex: 1 })
    const batch1 = fx.run('m', ['false', 'false', 'true', 'true'])
    const batch2 = fx.run('m', ['false', 'false', 'true', 'false'], { repeatIndex: 1 })
    fx.db.prepare(`UPDATE runs SET config = '{"mode":"batch"}' WHERE id IN (?, ?)`).run(batch1, batch2)
    const m = computeDatasetMetrics(fx.db, fx.datasetId, { replicates: 0 })
    expect(m.spreads.map((s) => [s.mode, s.runIds])).toEqual([
      ['sync', [sync1, sync2]],
      ['batch', [batch1, batch2]],
    ])
    // The batch runs' much worse error rate does not widen the call-by-call runs' spread.
    expect(m.spreads[0]!.errorRate).toMatchObject({ runs: 2, min: 0, max: 0.25 })
    expect(m.spreads[1]!.label).toBe('m · faaf-tf · batch')
    expect(toJsonReport(m).repeat_spread.map((s) => [s.mode, s.runs])).toEqual([
      ['sync', [sync1, sync2]],
      ['batch', [batch1, batch2]],
    ])
    fx.db.close()
  })

  it('a run answered wholly from the response cache is a replay: named beside the spread, not counted in it', () => {
    const fx = makeFixture(dir(), { items: 4, variants: ['answer'], facts: 1 })
    fx.labelAll('ana', ['true', 'true', 'false', 'false'])
    const call = { promptTokens: 10, completionTokens: 1, cost: 0.001, latencyMs: 5 }
    const calls = [call, call, call, call]
    const r1 = fx.run('m', ['true', 'true', 'false', 'false'], { calls })
    const r2 = fx.run('m', ['true', 'false', 'false', 'false'], { repeatIndex: 1, calls })
    // The same answers as r1 again, every one from the cache (0 calls made).
    const replay = fx.run('m', ['true', 'true', 'false', 'false'], { calls })
    fx.db.prepare('UPDATE run_calls SET cached = 1, cost = 0 WHERE run_id = ?').run(replay)
    const m = computeDatasetMetrics(fx.db, fx.datasetId, { replicates: 0 })
    expect(m.spreads).toHaveLength(1)
    expect(m.spreads[0]).toMatchObject({ runIds: [r1, r2], replays: [replay] })
    expect(m.spreads[0]!.errorRate).toMatchObject({ runs: 2, min: 0, max: 0.25 })
    expect(spreadRunsWords(m.spreads[0]!)).toBe(
      `#${r1} #${r2} (left out: #${replay}, its replies all reused from an earlier run: a replay, not a repeat)`,
    )
    expect(toJsonReport(m).repeat_spread[0]).toMatchObject({ runs: [r1, r2], replays_left_out: [replay] })
    fx.db.close()
  })
})
