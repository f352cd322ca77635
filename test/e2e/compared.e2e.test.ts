import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { createDataset } from '../../src/main/store/repos/datasets'
import { BINARY_SCHEMA, FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()

const REFERENCE = 'The bridge opened in 1932 after six years of work by the harbour company.'
const CHANGED = 'The bridge opened in 1936 after six years of work by the harbour company.'
const LONG_FACT =
  'The harbour bridge, which took six years of work by the harbour company to build, opened to traffic in 1932 and carried trams, cars and people on foot across the water.'

function seed(ws: Workspace): void {
  const facts = createDataset(ws.db, { name: 'Compared', labelSchema: FAAF_SCHEMA })
  const same = ws.content.insertItem(facts.id, { extId: 'same', question: 'When?', reference: REFERENCE }, 0)
  ws.content.insertCandidate(same, { variant: 'answer', text: REFERENCE })
  ws.content.insertUnit(same, { kind: 'fact', text: LONG_FACT })
  const changed = ws.content.insertItem(
    facts.id,
    { extId: 'changed', question: 'When?', reference: REFERENCE },
    1,
  )
  ws.content.insertCandidate(changed, { variant: 'answer', text: CHANGED })
  ws.content.insertUnit(changed, { kind: 'fact', text: 'The bridge opened in 1932.' })
  const pairs = createDataset(ws.db, { name: 'Pairs', labelSchema: BINARY_SCHEMA })
  const pair = ws.content.insertItem(pairs.id, { extId: 'p1', question: null, reference: REFERENCE }, 0)
  const c = ws.content.insertCandidate(pair, { variant: 'paraphrase', text: CHANGED })
  ws.content.insertUnit(pair, { kind: 'whole', text: CHANGED, candidateId: c })
}

const highlighted = (name: string) => `[...(CSS.highlights.get('${name}') ?? [])].map((r) => r.toString())`

describe('reference and answer compared', () => {
  it('says when the answer is the reference, diffs it word by word when not, and uses the card’s width', async () => {
    const app = await start({ demo: false })
    const { page } = app
    seed(app.server.ctx.workspace)
    await app.reload()
    const annotate = new AnnotatePage(page)
    await annotate.open('Compared')
    await page.getByTestId('identical').getByText('identical to the answer').waitFor()
    expect(await page.getByTestId('diff-toggle').count()).toBe(0)
    // A long unit wraps across (nearly) the whole card, not beside an empty column.
    const widths = (await page.evaluate(`(() => {
      const card = document.querySelector('.unit').getBoundingClientRect().width
      const text = document.querySelector('.unit-text').getBoundingClientRect().width
      return text / card
    })()`)) as number
    // (It wrapped at about 65% when the verdict slot was a column of its own.)
    expect(widths).toBeGreaterThan(0.75)
    await app.shot('annotate-identical')

    await page.keyboard.press(']')
    const toggle = page.getByTestId('diff-toggle')
    await toggle.waitFor()
    expect(await page.evaluate(highlighted('factlab-diff-added'))).toEqual([])
    await toggle.click()
    await expect.poll(() => page.evaluate(highlighted('factlab-diff-added'))).toEqual(['1936'])
    expect(await page.evaluate(highlighted('factlab-diff-removed'))).toEqual(['1932'])
    // The best-matching span of the focused unit is still marked in both panes.
    expect(((await page.evaluate(highlighted('factlab-align'))) as string[]).length).toBe(2)
    await app.shot('annotate-diff')
  })

  it('shows a pair’s two sentences once: the unit list does not repeat the answer', async () => {
    const app = await start({ demo: false })
    const { page } = app
    seed(app.server.ctx.workspace)
    await app.reload()
    const annotate = new AnnotatePage(page)
    await annotate.open('Pairs')
    await annotate.focused.getByTestId('whole-answer').waitFor()
    expect(await page.getByText(CHANGED, { exact: true }).count()).toBe(1)
    expect(await page.getByText(REFERENCE, { exact: true }).count()).toBe(1)
  })
})
