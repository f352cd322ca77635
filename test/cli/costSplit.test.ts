import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { getModel, saveModel } from '../../src/main/providers/models'
import type { CostSplitJson } from '../../src/shared/costSplit'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { fakeAnthropic, fakeOpenAi, judgeArgs, priceArgs, savedWorkspace } from '../runs/cliHelpers'

/**
 * A run's cost told apart by price — uncached prompt tokens, prompt-cache reads and writes,
 * output — in the same words in `judge run`, `judge status`, `metrics` and `metrics --json`.
 */
const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

interface Summary {
  cost: number
  prompt_tokens: number
  completion_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
  cost_split: CostSplitJson
}

const PARTS = ['uncached', 'cache_read', 'cache_write', 'output'] as const
const words = { uncached: 'uncached', cache_read: 'cache read', cache_write: 'cache write', output: 'output' }

/** The split as the CLI prints it, from the JSON's own figures. */
const splitLine = (s: CostSplitJson) =>
  `tokens by price: ${PARTS.map((p) => `${s[p].tokens.toLocaleString('en')} ${words[p]}${s[p].cost === null ? '' : ` (${s[p].cost!.toFixed(4)})`}`).join(' · ')}`

describe('the cost split by price', () => {
  it('judge run, judge status and metrics say what the cache reads, the cache writes and the rest cost, adding up to the cost', async () => {
    const { file } = savedWorkspace(dir(), 2, 3)
    const model = fakeAnthropic(fake())
    // Anthropic's usual ratios: a cache read at a tenth of the input price, a write at 1.25 times.
    expect((await cli(priceArgs(file, model, '--input', '3', '--output', '15'))).code).toBe(0)
    const run = await cli(judgeArgs(file, model, 'prompt-tf', '--no-cache', '--json'))
    expect(run.code, run.err).toBe(0)
    const s = JSON.parse(run.out) as Summary
    // The first fact of each answer writes the passage to the cache; the other two read it.
    expect(s.cache_write_tokens).toBeGreaterThan(0)
    expect(s.cache_read_tokens).toBeGreaterThan(0)
    expect(s.cost_split.cache_read.tokens).toBe(s.cache_read_tokens)
    expect(s.cost_split.cache_write.tokens).toBe(s.cache_write_tokens)
    expect(s.cost_split.uncached.tokens).toBe(s.prompt_tokens - s.cache_read_tokens - s.cache_write_tokens)
    expect(s.cost_split.output.tokens).toBe(s.completion_tokens)
    expect(s.cost_split.cache_read.cost).toBeCloseTo((s.cache_read_tokens * 0.3) / 1e6, 12)
    expect(s.cost_split.cache_write.cost).toBeCloseTo((s.cache_write_tokens * 3.75) / 1e6, 12)
    const sum = PARTS.reduce((n, p) => n + s.cost_split[p].cost!, 0)
    expect(sum).toBeCloseTo(s.cost, 12)

    // The same run in words: under its summary line, in `judge status`, in the metrics report.
    const said = splitLine(s.cost_split)
    const resumed = await cli(['judge', 'resume', '1', '--workspace', file])
    expect(resumed.out).toContain(`\n  ${said}\n`)
    const status = await cli(['judge', 'status', '1', '--workspace', file])
    expect(status.code, status.err).toBe(0)
    expect(status.out).toContain(`\n  ${said}`)

    const metrics = await cli(['metrics', '--workspace', file, '--dataset', 'd', '--json'])
    const [judge] = (JSON.parse(metrics.out) as { judges: (Summary & { label: string })[] }).judges
    expect(judge).toMatchObject({
      cache_read_tokens: s.cache_read_tokens,
      cache_write_tokens: s.cache_write_tokens,
      cost_split: s.cost_split,
    })
    const report = await cli(['metrics', '--workspace', file, '--dataset', 'd'])
    const costRow = report.out
      .slice(report.out.indexOf('Cost and time'))
      .split('\n')
      .find((l) => l.startsWith(`| ${judge!.label}`))
    // The report's money is in dollars, as the Compare view writes it.
    const dollars = PARTS.map(
      (p) =>
        `${s.cost_split[p].tokens.toLocaleString('en')} ${words[p]} ($${s.cost_split[p].cost!.toFixed(4)})`,
    ).join(' · ')
    expect(costRow).toContain(`| ${dollars} |`)
  })

  it('a local server run with no price splits its tokens with no money, and the note says how to price that server', async () => {
    const { file } = savedWorkspace(dir(), 1, 2)
    const local = { provider: 'openai-compatible', model: 'local-judge', baseUrl: fake().openaiUrl }
    const run = await cli(judgeArgs(file, local, 'faaf-tf', '--no-cache'))
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('cost unknown (no price set)')
    expect(run.out).toMatch(
      /\n {2}tokens by price: [\d,]+ uncached · 0 cache read · 0 cache write · [\d,]+ output\n/,
    )
    const command = `factlab models price --provider openai-compatible --model local-judge --base-url ${fake().openaiUrl} --input <per M tokens> --output <per M tokens>`
    expect(run.out).toContain(
      `note: openai-compatible/local-judge at ${fake().openaiUrl} has no price recorded, so its cost is unknown (a server that charges nothing can stay so); if it charges per token, set its prices with: ${command}`,
    )

    // The command as the note gives it, with prices in: the run is priced, its split has money.
    const priced = await cli(priceArgs(file, local, '--input', '0.5', '--output', '1'))
    expect(priced.code, priced.err).toBe(0)
    const status = await cli(['judge', 'status', '1', '--workspace', file])
    expect(status.out).toMatch(/cost so far \d\.\d{4} \(at prices entered after the run\)/)
    expect(status.out).toMatch(/tokens by price: [\d,]+ uncached \(\d\.\d{4}\) · 0 cache read \(0\.0000\)/)
  })
})

describe('a run with no price whose calls were priced later', () => {
  it('a batch priced while it waited is priced whole at the price entered, with money in every part of its split', async () => {
    const { file } = savedWorkspace(dir(), 3, 2)
    const model = fakeOpenAi(fake())
    // The price is entered while the provider holds the batch: its answers are read after it.
    let priced = false
    fake().batches.onEvent = (e) => {
      if (e.kind !== 'retrieve' || priced) return undefined
      priced = true
      const ws = Workspace.open(file)
      try {
        saveModel(ws.db, {
          ...getModel(ws.db, 'openai', model.model, model.baseUrl!),
          priceInputPerMTok: 2,
          priceOutputPerMTok: 8,
        })
      } finally {
        ws.close()
      }
      return undefined
    }
    try {
      const run = await cli(
        judgeArgs(file, model, 'faaf-tf', '--no-cache', '--mode', 'batch', '--poll-ms', '0', '--json'),
      )
      expect(run.code, run.err).toBe(0)
    } finally {
      fake().batches.onEvent = null
    }
    expect(priced).toBe(true)

    const status = await cli(['judge', 'resume', '1', '--workspace', file, '--json'])
    const s = JSON.parse(status.out) as Summary & { cost_basis: string }
    expect(s.prompt_tokens).toBeGreaterThan(0)
    // Every token at the price entered after the run was made, less the batch discount.
    expect(s.cost).toBeCloseTo(((s.prompt_tokens * 2 + s.completion_tokens * 8) / 1e6) * 0.5, 12)
    expect(s.cost_basis).toBe('model')
    for (const p of PARTS) expect(s.cost_split[p].cost, p).not.toBeNull()
    expect(PARTS.reduce((n, p) => n + s.cost_split[p].cost!, 0)).toBeCloseTo(s.cost, 12)

    const words = await cli(['judge', 'status', '1', '--workspace', file])
    expect(words.out).toContain('(at the batch price, at prices entered after the run)')
    expect(words.out).toMatch(/tokens by price: [\d,]+ uncached \(\d\.\d{4}\)/)
  })
})

describe('a run whose calls came with their cost and no prices', () => {
  it('judge status gives its cost, its tokens by price, and why the parts have no money', async () => {
    // The demo's illustrative runs carry a cost per call, as an imported judge's may, and no price.
    const file = demoWorkspaceIn(dir())
    const status = await cli(['judge', 'status', '1', '--workspace', file])
    expect(status.code, status.err).toBe(0)
    expect(status.out).toMatch(/cost so far \d\.\d{4}/)
    expect(status.out).toMatch(
      /\n {2}tokens by price: [\d,]+ uncached · 0 cache read · 0 cache write · [\d,]+ output \(the calls came with their cost, not their prices, so no part has its money\)\n/,
    )
  })
})

it('the metrics report says the same under a demo run’s split', async () => {
  const file = demoWorkspaceIn(dir())
  const report = await cli(['metrics', '--workspace', file, '--dataset', '1'])
  expect(report.code, report.err).toBe(0)
  expect(report.out).toMatch(
    /[\d,]+ uncached · 0 cache read · 0 cache write · [\d,]+ output \(the calls came with their cost, not their prices, so no part has its money\) \|/,
  )
})
