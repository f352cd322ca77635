import { describe, expect, it } from 'vitest'
import { saveConfig } from '../../src/main/runs/configs'
import { createRuns } from '../../src/main/runs/create'
import { GENERATE_METHODS } from '../../src/shared/domain'
import { appSessions } from './harness'

const start = appSessions()

describe('judge set-up without a key', () => {
  it('starts from the lexical baseline, offers only the methods a provider runs, and says what is missing', async () => {
    delete process.env.OPENAI_API_KEY
    delete process.env.ANTHROPIC_API_KEY
    const app = await start()
    const { page } = app
    await page.evaluate(`location.hash = '#/judges/1'`)
    const view = page.getByTestId('judges-view')
    await view.getByTestId('lexical-start-hint').waitFor()
    // The baseline needs no key: "no API key" is said only of a config whose provider needs one.
    expect(await view.getByTestId('no-key-hint').count()).toBe(0)
    expect(await view.getByLabel('Provider').inputValue()).toBe('lexical')
    expect(await view.getByLabel('Model').inputValue()).toBe('rougeL')
    const methods = () => view.getByLabel('Method').locator('option').allTextContents()
    expect(await methods()).toEqual(['lexical'])

    // An LLM provider: judge methods only, no unit generation, and the button says what is missing.
    await view.getByLabel('Provider').selectOption('openai')
    expect(await view.getByTestId('no-key-hint').textContent()).toContain(
      'No API key is set for openai, so this config cannot run yet',
    )
    expect(await view.getByTestId('no-key-hint').textContent()).toContain('OPENAI_API_KEY')
    const offered = await methods()
    expect(offered).not.toContain('lexical')
    for (const m of GENERATE_METHODS) expect(offered).not.toContain(m)
    expect(await view.getByLabel('Model').inputValue()).toBe('')
    // The baseline's name does not follow it to another provider.
    expect(await view.getByLabel('Config name').inputValue()).toBe('')
    expect(await view.getByRole('button', { name: 'Create config' }).isDisabled()).toBe(true)
    expect(await view.getByTestId('config-missing').textContent()).toBe('Still needed: a name; a model name.')
    await app.shot('judges-config-missing')

    await view.getByLabel('Provider').selectOption('lexical')
    expect(await view.getByLabel('Model').inputValue()).toBe('rougeL')
    expect(await view.getByLabel('Config name').inputValue()).toBe('Lexical baseline')
    await view.getByRole('button', { name: 'Create config' }).click()
    await view.getByRole('button', { name: 'Save changes' }).waitFor()
    await view.getByRole('button', { name: 'Start run' }).click()
    await expect.poll(() => view.getByTestId('run-status').first().textContent()).toMatch(/^done/)

    // Unit generation lives in the Units view, beside the units it makes.
    await page.evaluate(`location.hash = '#/units/1'`)
    const gen = page.getByTestId('units-generate')
    await gen.locator('summary').click()
    expect(await gen.getByLabel('Generation method').locator('option').allTextContents()).toEqual([
      'facts',
      'questions',
      'triplets',
    ])
    expect(await gen.getByRole('button', { name: 'Start generating' }).isDisabled()).toBe(true)
    expect(await gen.textContent()).toContain('Still needed: a model name.')
  })

  it('starts a new config from the provider last saved: a local server stays chosen, with its address', async () => {
    const app = await start({ viewport: { width: 1024, height: 800 } })
    const { page } = app
    const db = app.server.ctx.workspace.db
    saveConfig(db, {
      name: 'Local llama',
      provider: 'openai-compatible',
      model: 'llama3',
      baseUrl: 'http://localhost:11434/v1',
      method: 'faaf-tfn',
      settings: { concurrency: 4 },
    })
    await page.evaluate(`location.hash = '#/judges/1'`)
    const view = page.getByTestId('judges-view')
    await view.getByLabel('Saved configs').waitFor()
    expect(await view.getByLabel('Saved configs').inputValue()).toBe('')
    expect(await view.getByLabel('Provider').inputValue()).toBe('openai-compatible')
    expect(await view.getByLabel('Base URL').inputValue()).toBe('http://localhost:11434/v1')
    expect(await view.getByLabel('Model').inputValue()).toBe('')
    await app.shot('judges-new-config-local-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await app.shot('judges-new-config-local-1440')
  })

  it('shows a run whose every call failed as failed, with the first error in its row', async () => {
    const app = await start()
    const { page } = app
    const db = app.server.ctx.workspace.db
    const [run] = createRuns(db, { datasetId: 1, provider: 'openai', model: 'gpt-x', method: 'faaf-tfn' })
    db.prepare(
      `UPDATE runs SET status = 'failed', total_calls = 1,
         error = 'Every call failed (3 targets, no verdict). First error — rate limit: 429 Too Many Requests'
       WHERE id = ?`,
    ).run(run)
    db.prepare(
      `INSERT INTO verdicts (run_id, target_id, status, detail)
       SELECT ?, id, 'error', '{"problem":"429 Too Many Requests (after 4 attempts)"}' FROM targets WHERE dataset_id = 1 LIMIT 3`,
    ).run(run)
    await page.evaluate(`location.hash = '#/judges/1'`)
    const row = page.getByTestId(`run-${run}`)
    await row.waitFor()
    expect(await row.getByTestId('run-status').textContent()).toMatch(/^failed/)
    expect(await row.getByTestId('run-error').textContent()).toContain('First error — rate limit: 429')
    expect(await row.locator('.bar > span.failed').count()).toBe(1)
  })
})

describe('a run’s cost in the Judges view', () => {
  it('says "no price set" for a run made with none, never $0, and "all replies reused" for a replay', async () => {
    const app = await start({ viewport: { width: 1024, height: 900 } })
    const { page } = app
    const db = app.server.ctx.workspace.db
    const [unpriced] = createRuns(db, {
      datasetId: 1,
      provider: 'openai',
      model: 'gpt-x',
      method: 'faaf-tfn',
    })
    const [replay] = createRuns(db, { datasetId: 1, provider: 'openai', model: 'gpt-x', method: 'faaf-tfn' })
    const call = db.prepare(
      `INSERT INTO run_calls (run_id, call_key, status, cached, attempts, prompt_tokens, completion_tokens, cost, finished_at)
       VALUES (?, ?, 'done', ?, 1, 100, 10, 0, '2026-01-01')`,
    )
    for (const k of ['a', 'b']) {
      call.run(unpriced, k, 0)
      call.run(replay, k, 1)
    }
    db.prepare("UPDATE runs SET status = 'done', total_calls = 2 WHERE id IN (?, ?)").run(unpriced, replay)
    await page.evaluate(`location.hash = '#/judges/1'`)
    const noPrice = page.getByTestId(`run-${unpriced}`).getByTestId('run-cost')
    await noPrice.waitFor()
    expect(await noPrice.textContent()).toBe('— no price set')
    const cached = page.getByTestId(`run-${replay}`)
    expect(await cached.getByTestId('run-cost').textContent()).toBe('$0.0000all replies reused, nothing sent')
    expect(await cached.textContent()).toMatch(/2 (of 2 )?calls, all replies reused, nothing sent/)
    await page.getByTestId('runs-frame').scrollIntoViewIfNeeded()
    await app.shot('judges-run-cost-1024')
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.getByTestId('runs-frame').scrollIntoViewIfNeeded()
    await app.shot('judges-run-cost-1440')
  })
})

describe('judges view at 1280 px', () => {
  it('shows every run column, the cost and the run actions inside the Runs card without scrolling', async () => {
    const app = await start({ viewport: { width: 1280, height: 800 } })
    const { page } = app
    await page.evaluate(`location.hash = '#/judges/1'`)
    const frame = page.getByTestId('runs-frame')
    await frame.getByRole('columnheader', { name: 'Calls and cost', exact: true }).waitFor()
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280)
    // The table fits its card: nothing hides behind a sideways scroll.
    const widths = await frame.evaluate((el) => [el.scrollWidth, el.clientWidth])
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!)
    const card = await page.getByRole('heading', { name: 'Runs' }).locator('..').boundingBox()
    for (const el of [
      frame.getByTestId('run-cost').first(),
      frame.getByRole('button', { name: 'Export verdicts…' }).first(),
    ]) {
      const box = await el.boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width)
    }
    expect(await frame.getByTestId('run-cost').first().textContent()).toMatch(/^\$\d+\.\d{4}/)
    await app.shot('judges-1280')
  })
})
