import { expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import type { DatasetMetrics } from '../../src/shared/contract/metrics'
import type { RunInfo } from '../../src/shared/contract/runs'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { fakeAnthropic, judgeArgs, priceArgs, savedWorkspace } from './cliHelpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['ANTHROPIC_API_KEY'])
const openApp = testApps()

/** What a person types to judge the test dataset with Anthropic's prompt-tf on the fake server. */
const judge = (file: string) => judgeArgs(file, fakeAnthropic(fake()), 'prompt-tf', '--no-cache', '--json')

const price = (file: string, baseUrl: string, input: string, output: string) =>
  cli(priceArgs(file, { ...fakeAnthropic(fake()), baseUrl }, '--input', input, '--output', output))

/**
 * A run's money worked out by hand from its calls' stored tokens: uncached prompt tokens at the
 * input price, cache reads at a tenth of it and cache writes at a quarter more (Anthropic's
 * ratios, no cache price entered), completion tokens at the output price. Cache hits are free.
 */
function byHand(file: string, runId: number, input: number, output: number): number {
  const ws = Workspace.open(file)
  try {
    const rows = ws.db
      .prepare(
        `SELECT prompt_tokens AS p, completion_tokens AS c, cache_read_tokens AS r, cache_write_tokens AS w
         FROM run_calls WHERE run_id = ? AND cached = 0 AND status = 'done'`,
      )
      .all(runId) as { p: number; c: number; r: number; w: number }[]
    return rows.reduce(
      (sum, x) =>
        sum + ((x.p - x.r - x.w) * input + x.r * input * 0.1 + x.w * input * 1.25 + x.c * output) / 1e6,
      0,
    )
  } finally {
    ws.close()
  }
}

/** The run's cost as each screen reads it: judge run/resume, judge status, Judges view, metrics, Compare, report. */
async function everyReading(file: string, runId: number) {
  const resumed = JSON.parse(
    (await cli(['judge', 'resume', String(runId), '--workspace', file, '--json'])).out,
  )
  const status = JSON.parse(
    (await cli(['judge', 'status', String(runId), '--workspace', file, '--json'])).out,
  )
  const metrics = JSON.parse(
    (await cli(['metrics', '--workspace', file, '--dataset', 'd', '--json'])).out,
  ) as {
    judges: { run: number; cost: number; cost_basis: string }[]
  }
  const app = openApp(file)
  const runs = await app.value<RunInfo[]>('judges.runs', {})
  const compare = await app.value<DatasetMetrics>('metrics.compare', { datasetId: 1, replicates: 0 })
  const report = await app.value<{ text: string }>('metrics.report', { datasetId: 1, format: 'json' })
  const reported = (JSON.parse(report.text) as typeof metrics).judges.find((j) => j.run === runId)!
  const run = runs.find((r) => r.id === runId)!
  const compared = compare.judges.find((j) => j.runId === runId)!
  const metric = metrics.judges.find((j) => j.run === runId)!
  return {
    costs: {
      'judge resume': resumed.cost as number,
      'judge status': status.cost as number,
      'Judges view': run.cost,
      metrics: metric.cost,
      Compare: compared.cost,
      report: reported.cost,
    },
    bases: [resumed.cost_basis, run.costBasis, metric.cost_basis, compared.costBasis, reported.cost_basis],
  }
}

it('prices a run the same on every screen: a run made before its model had a price takes the prices entered since, for its own base URL, cache tokens at their prices', async () => {
  const { file } = savedWorkspace(dir(), 3, 3)

  const first = await cli(judge(file))
  expect(first.code, first.err).toBe(0)
  const unpriced = JSON.parse(first.out) as {
    run: number
    cost: number
    cost_basis: string
    cache_read_tokens: number
    cache_write_tokens: number
  }
  expect(unpriced).toMatchObject({ cost: 0, cost_basis: 'none' })
  // The passage is written to the prompt cache once per candidate and read back by the other facts.
  expect(unpriced.cache_read_tokens).toBeGreaterThan(0)
  expect(unpriced.cache_write_tokens).toBeGreaterThan(0)

  // A price for the same model on another server is not this run's price.
  expect((await price(file, 'http://elsewhere.example/v1', '100', '500')).code).toBe(0)
  expect((await price(file, fake().anthropicUrl, '1', '5')).code).toBe(0)

  const expected = byHand(file, unpriced.run, 1, 5)
  expect(expected).toBeGreaterThan(0)
  const later = await everyReading(file, unpriced.run)
  for (const [screen, cost] of Object.entries(later.costs)) expect(cost, screen).toBeCloseTo(expected, 12)
  expect(new Set(later.bases)).toEqual(new Set(['model']))

  // A run made now is priced when it is made, and keeps that price when the price changes.
  const second = JSON.parse((await cli(judge(file))).out) as { run: number; cost: number; cost_basis: string }
  expect(second.cost_basis).toBe('run')
  const frozen = byHand(file, second.run, 1, 5)
  expect(second.cost).toBeCloseTo(frozen, 12)
  expect((await price(file, fake().anthropicUrl, '2', '10')).code).toBe(0)

  const kept = await everyReading(file, second.run)
  for (const [screen, cost] of Object.entries(kept.costs)) expect(cost, screen).toBeCloseTo(frozen, 12)
  expect(new Set(kept.bases)).toEqual(new Set(['run']))
  // The run made with no price follows the model's prices as they stand.
  const moved = await everyReading(file, unpriced.run)
  for (const [screen, cost] of Object.entries(moved.costs))
    expect(cost, screen).toBeCloseTo(byHand(file, unpriced.run, 2, 10), 12)
})

it('says on the summary line when a run is priced with prices entered after it', async () => {
  const { file } = savedWorkspace(dir(), 2, 2)
  const run = JSON.parse((await cli(judge(file))).out) as { run: number }
  await price(file, fake().anthropicUrl, '1', '5')
  const shown = await cli(['judge', 'resume', String(run.run), '--workspace', file])
  expect(shown.out).toContain(
    `note: run ${run.run} was made before anthropic/claude-fake had a price; its cost uses the prices entered since`,
  )
  expect(shown.out).not.toContain('no price recorded')
})
