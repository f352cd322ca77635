import { describe, expect, it } from 'vitest'
import { answerAll, type Script } from '../fake-llm/server'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { appSessions } from './harness'

/** The Judges view's model panel for a local openai-compatible server, in Chromium. */
const start = appSessions()
const fake = fakeLlmForFile(['OPENAI_API_KEY'])

/** A server that answers in text when offered a function, but calls it when made to. */
const callsOnlyWhenForced: Script = (req, i) => {
  if (Array.isArray(req.body.tools) && req.toolName === null) return { kind: 'text', text: 'Yes, it is.' }
  return answerAll('true')(req, i)
}

describe('the model panel of a local server', () => {
  it('says an unpriced model has no price, and Detect says why tools is saved though the first probe said no', async () => {
    fake().setScript(callsOnlyWhenForced)
    try {
      const app = await start({ viewport: { width: 1024, height: 900 } })
      const { page } = app
      await page.evaluate(`location.hash = '#/judges/1'`)
      const view = page.getByTestId('judges-view')
      await view.getByLabel('Config name').fill('Local qwen')
      await view.getByLabel('Provider').selectOption('openai-compatible')
      await view.getByLabel('Model').fill('qwen-ui-7b')
      await view.getByLabel('Base URL').fill(fake().openaiUrl)
      await view.getByLabel('Method').selectOption('faaf-tf')
      await view.getByRole('button', { name: 'Create config' }).click()
      await view.getByRole('button', { name: 'Save changes' }).waitFor()

      // Never priced: the fields are empty and say "not set" (no 0 that reads as free), the
      // heading names the server (its prices are its own), and the note says what no price means.
      const model = view.getByRole('region', { name: 'Model capabilities' })
      const note = model.getByTestId('no-price-note')
      await note.waitFor()
      expect(await model.getByRole('heading').textContent()).toBe(
        `Model openai-compatible/qwen-ui-7b at ${fake().openaiUrl}`,
      )
      for (const name of ['Input price', 'Output price']) {
        const field = model.getByLabel(name, { exact: true })
        expect(await field.inputValue()).toBe('')
        expect(await field.getAttribute('placeholder')).toBe('not set')
      }
      const noteText = await note.textContent()
      expect(noteText).toContain('No prices yet: the cost of this model’s runs reads “no price set”.')
      expect(noteText).toContain(
        'A price of 0 counts as not set, so a local model that costs nothing keeps “no price set”',
      )

      await model.getByRole('button', { name: 'Detect' }).click()
      await expect.poll(() => model.textContent()).toContain('Detected and saved:')
      expect(await model.textContent()).toContain(
        'Detected and saved: tools no (when free to choose; tools is recorded all the same, because it calls the function when made to, and runs always make it), forcedToolChoice yes,',
      )
      expect(await model.getByLabel('Tools / function calling').isChecked()).toBe(true)
      await app.shot('model-panel-local-1024')
      await page.setViewportSize({ width: 1440, height: 900 })
      await app.shot('model-panel-local-1440')

      // A price entered: the note goes, and the price is kept as typed through a save.
      await model.getByLabel('Input price', { exact: true }).fill('0.2')
      await expect.poll(() => note.count()).toBe(0)
      await model.getByRole('button', { name: 'Save model' }).click()
      await expect.poll(() => model.textContent()).toContain('Saved.')
      expect(await model.getByLabel('Input price', { exact: true }).inputValue()).toBe('0.2')
      expect(await model.getByLabel('Output price', { exact: true }).inputValue()).toBe('')
    } finally {
      fake().setScript(answerAll('true'))
    }
  })
})
