import { describe, expect, it } from 'vitest'
import { saveModel } from '../../src/main/providers/models'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns } from '../../src/main/runs/create'
import { runInfos } from '../../src/main/runs/queries'
import { fmtMoney } from '../../src/shared/contract/metrics'
import { costSplitLines, SPLIT_PARTS_UNPRICED, SPLIT_PARTS_UNPRICED_SHORT } from '../../src/shared/costSplit'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { appSessions } from './harness'

/**
 * A priced Prompt(T/F) run on Anthropic, whose passage is written to the prompt cache once per
 * answer and read after that: the Compare view's cost column and chart, and the Judges view's run
 * row, say its tokens by price with what each part cost, in Chromium.
 */
const start = appSessions()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

describe('the cost split on screen', () => {
  it('Compare and the Judges view show uncached, cache-read and cache-write tokens with their money', async () => {
    const app = await start({ annotator: 'tester', viewport: { width: 1440, height: 900 } })
    const { page } = app
    const ctx = app.server.ctx
    const db = ctx.workspace.db
    const datasetId = db.prepare('SELECT id FROM datasets ORDER BY id LIMIT 1').pluck().get() as number
    saveModel(db, {
      provider: 'anthropic',
      model: 'claude-fake',
      baseUrl: fake().anthropicUrl,
      capabilities: DEFAULT_CAPABILITIES.anthropic,
      priceInputPerMTok: 3,
      priceOutputPerMTok: 15,
    })
    const [runId] = createRuns(db, {
      datasetId,
      provider: 'anthropic',
      model: 'claude-fake',
      baseUrl: fake().anthropicUrl,
      method: 'prompt-tf',
      cache: false,
    })
    const summary = await ctx.runs.start(runId!)
    expect(summary.status).toBe('done')
    expect(summary.cache_read_tokens).toBeGreaterThan(0)
    expect(summary.cache_write_tokens).toBeGreaterThan(0)
    const run = runInfos(db, datasetId, () => false).find((r) => r.id === runId)!
    // What each screen must say: the parts, each with its money, from the one shared helper.
    const lines = costSplitLines(run.costSplit, fmtMoney)
    expect(lines[1]).toMatch(/^[\d,]+ cache read \(\$\d\.\d{4}\)$/)
    expect(lines[2]).toMatch(/^[\d,]+ cache write \(\$\d\.\d{4}\)$/)

    await page.evaluate(`location.hash = '#/compare/${datasetId}'`)
    const row = page.locator(`[data-row="run-${runId}"]`)
    const split = row.locator('[data-metric="cost-split"]')
    await expect.poll(() => split.locator('div').allTextContents()).toEqual(lines)
    // The cost chart's point for the run carries the same words on hover.
    const point = page.locator('svg circle title', { hasText: `(#${runId})` })
    await expect.poll(() => point.first().textContent()).toContain(`tokens by price: ${lines.join(' · ')}`)
    await row.scrollIntoViewIfNeeded()
    await app.shot('compare-cost-split')

    await page.evaluate(`location.hash = '#/judges/${datasetId}'`)
    const runRow = page.getByTestId(`run-${runId}`)
    await expect
      .poll(() => runRow.getByTestId('run-cost-split').locator('div').allTextContents())
      .toEqual(lines)
    // A demo run carries its cost and no prices: its row says why its parts have no money.
    const demoRun = page.getByTestId('run-1')
    const unpriced = demoRun.getByTestId('run-split-unpriced')
    await expect.poll(() => unpriced.textContent()).toBe(SPLIT_PARTS_UNPRICED_SHORT)
    expect(await unpriced.getAttribute('title')).toBe(SPLIT_PARTS_UNPRICED)
    expect(await runRow.getByTestId('run-split-unpriced').count()).toBe(0)
    await runRow.scrollIntoViewIfNeeded()
    await app.shot('judges-cost-split')
  })
})
