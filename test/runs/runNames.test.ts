import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { costPoints } from '../../src/shared/charts/costError'
import type { RunInfo } from '../../src/shared/contract/runs'
import type { JsonReport } from '../../src/shared/metricsJson'
import { repeatWord } from '../../src/shared/runNames'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { fakeOpenAi, judgeArgs, priceArgs, savedWorkspace } from './cliHelpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY'])
const openApp = testApps()

const judge = (file: string, ...more: string[]) =>
  cli(judgeArgs(file, fakeOpenAi(fake()), 'faaf-tfn', '--no-cache', '--json', ...more))

interface JsonJudge {
  run: number
  label: string
  mode: string
  repeat_index: number
  cost: number
}

it('names a run the same on every screen: repeats counted from 1, a batch run marked as such', async () => {
  const { file } = savedWorkspace(dir(), 2, 2)
  const priced = await cli(priceArgs(file, fakeOpenAi(fake()), '--input', '1', '--output', '4'))
  expect(priced.code, priced.err).toBe(0)
  expect((await judge(file, '--repeat', '2')).code).toBe(0)
  expect((await judge(file, '--mode', 'batch', '--poll-ms', '0')).code).toBe(0)

  const metricsOut = (await cli(['metrics', '--workspace', file, '--dataset', 'd', '--json'])).out
  const metrics = JSON.parse(metricsOut) as {
    judges: JsonJudge[]
  }
  expect(metrics.judges.map((j) => [j.label, j.mode, j.repeat_index])).toEqual([
    ['gpt-fake · faaf-tfn (#1)', 'sync', 0],
    ['gpt-fake · faaf-tfn · repeat 2 (#2)', 'sync', 1],
    ['gpt-fake · faaf-tfn · batch (#3)', 'batch', 0],
  ])
  // Same requests, half the price: the batch run's mark is what tells the two costs apart.
  expect(metrics.judges[0]!.cost).toBeGreaterThan(0)
  expect(metrics.judges[2]!.cost).toBeCloseTo(metrics.judges[0]!.cost / 2, 12)
  // The cost chart names the batch run by its name alone: "batch" once, not again beside it.
  // (The test dataset has no gold: each run is given an error rate to be placed by.)
  const json = JSON.parse(metricsOut) as JsonReport
  const placed = { ...json, judges: json.judges.map((j) => ({ ...j, error_rate: 0.25 })) }
  expect(costPoints(placed).map((p) => p.label)).toEqual(metrics.judges.map((j) => j.label))

  const out = join(dir(), 'report.md')
  expect(
    (await cli(['metrics', '--workspace', file, '--dataset', 'd', '--format', 'md', '--out', out])).code,
  ).toBe(0)
  const report = readFileSync(out, 'utf8')
  expect(report).toContain('| gpt-fake · faaf-tfn · repeat 2 (#2) |')
  expect(report).toContain('| gpt-fake · faaf-tfn · batch (#3) |')

  // The Judges view numbers its rows from the same index with the same words.
  const runs = await openApp(file).value<RunInfo[]>('judges.runs', {})
  expect(runs.map((r) => [r.id, repeatWord(r.repeatIndex), r.mode])).toEqual([
    [3, null, 'batch'],
    [2, 'repeat 2', 'sync'],
    [1, null, 'sync'],
  ])
})
