import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

async function escapeCloses(page: Page, what: string, open: () => Promise<unknown>, shown: Locator) {
  await open()
  await shown.waitFor()
  // Focus is left where a mouse user leaves it: on the page, not inside the dialog.
  await page.evaluate('document.activeElement && document.activeElement.blur()')
  await page.keyboard.press('Escape')
  await shown.waitFor({ state: 'detached' }).catch(() => {
    throw new Error(`Escape did not close ${what}`)
  })
}

describe('keyboard', () => {
  it('Escape closes every dialog and panel', async () => {
    const app = await start()
    const { page } = app
    const nav = (name: string) =>
      page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click()
    const dialog = (name: string | RegExp) => page.getByRole('dialog', { name })
    const card = page.getByRole('article', { name: DEMO })

    await nav('Datasets')
    await escapeCloses(
      page,
      'the import wizard',
      () => page.getByRole('button', { name: 'Import dataset…' }).click(),
      dialog('Import a dataset'),
    )
    await escapeCloses(
      page,
      'the export dialog',
      () => card.getByRole('button', { name: 'Export…' }).click(),
      dialog(/^Export/),
    )
    await escapeCloses(
      page,
      'the bundle dialog',
      () => card.getByRole('button', { name: 'Bundle my labels' }).click(),
      dialog(/^Bundle/),
    )
    await escapeCloses(
      page,
      'the merge dialog',
      () => card.getByRole('button', { name: 'Merge a bundle…' }).click(),
      dialog(/^Merge/),
    )
    await escapeCloses(
      page,
      'the annotator switch',
      () => page.getByRole('button', { name: /Labelling as/ }).click(),
      dialog('Who is labelling?'),
    )

    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    await escapeCloses(page, 'the note dialog', () => page.keyboard.press('n'), dialog('Note'))

    await nav('Compare')
    await escapeCloses(
      page,
      'the export menu',
      () => page.getByRole('button', { name: 'Export ▾' }).click(),
      page.getByRole('menu', { name: 'Export' }),
    )

    await nav('Units')
    const gen = page.getByTestId('units-generate')
    await gen.locator('summary').click()
    await gen.getByLabel('Generation model').waitFor()
    // The browser reports the toggle a moment after the click; Escape is armed once the app has it.
    await expect.poll(() => gen.getAttribute('data-open')).toBe('true')
    await page.evaluate('document.activeElement && document.activeElement.blur()')
    await page.keyboard.press('Escape')
    await expect.poll(() => gen.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false)

    await nav('Judges')
    const view = page.getByTestId('judges-view')
    await view.getByLabel('Config name').fill('baseline')
    await view.getByLabel('Provider').selectOption('lexical')
    await view.getByRole('button', { name: 'Create config' }).click()
    await view.getByRole('button', { name: 'Save changes' }).waitFor()
    await escapeCloses(
      page,
      'the request preview',
      () => view.getByRole('button', { name: 'Preview request' }).click(),
      page.getByRole('region', { name: 'Request preview' }),
    )
  })

  it('finishing a variant moves to the next one and says so; Enter stays in the item while it has work', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const crumbs = () => page.locator('.crumbs').textContent()
    const item = await crumbs()
    const tab = () => page.locator('.tab.active').textContent()
    const first = await tab()
    // Enter from the last unit of the first variant, with the units above it open: it stays in
    // this item (the first unit of the list), never jumping to item 2.
    const count = await annotate.units.count()
    for (let i = 1; i < count; i++) await page.keyboard.press('j')
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await page.keyboard.press('Enter')
    expect(await crumbs()).toBe(item)
    await annotate.expectFocusedIndex(0)

    // Label the rest of this variant: the view moves to the next variant and says so.
    for (let i = 1; i < count; i++) await page.keyboard.press('1')
    await expect.poll(tab).not.toBe(first)
    await page.getByRole('status').filter({ hasText: 'is done. Now' }).waitFor()
    expect(await crumbs()).toBe(item)
    await app.shot('annotate-variant-done')
  })

  it('in blind mode, the key after finishing a variant labels the next variant’s first unit and saves it', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    // A new annotator labels blind.
    expect(await page.getByRole('button', { name: /^Blind on/ }).getAttribute('aria-pressed')).toBe('true')
    const tab = () => page.locator('.tab.active').textContent()
    const first = await tab()
    const count = await annotate.units.count()
    // The whole first variant as fast as the keys go, without waiting for any save.
    for (let i = 0; i < count; i++) await page.keyboard.press('1')
    await page.getByRole('status').filter({ hasText: 'is done. Now' }).waitFor()
    expect(await tab()).not.toBe(first)
    await annotate.expectFocusedIndex(0)
    const next = await annotate.focusedTargetId()
    expect(await annotate.verdictOf(0)).toBeFalsy()

    await page.keyboard.press('2')
    await expect.poll(() => annotate.verdictOf(0)).toBe('false')
    await expect.poll(tab).toMatch(/\D1\/\d+$/)
    await expect.poll(() => annotate.saveState().textContent()).toBe('Saved ✓')
    const stored = app.server.ctx.workspace.db
      .prepare(
        `SELECT l.target_id AS id, l.verdict FROM labels l JOIN annotators a ON a.id = l.annotator_id
         WHERE a.name = 'tester' AND l.verdict IS NOT NULL`,
      )
      .all() as { id: number; verdict: string }[]
    expect(stored).toHaveLength(count + 1)
    expect(stored.find((r) => r.id === next)?.verdict).toBe('false')
    await app.shot('annotate-blind-variant-handover')
  })

  it('a clicked sidebar button keeps no focus ring, and the dataset card switches datasets', async () => {
    const app = await start()
    const { page } = app
    const ws = app.server.ctx.workspace
    const { createDataset } = await import('../../src/main/store/repos/datasets')
    const { FAAF_SCHEMA } = await import('../../src/shared/labelSchemas')
    const other = createDataset(ws.db, { name: 'Second dataset', labelSchema: FAAF_SCHEMA })
    const it0 = ws.content.insertItem(other.id, { extId: 'x', question: 'Q?', reference: 'R.' }, 0)
    ws.content.insertCandidate(it0, { variant: 'answer', text: 'A.' })
    ws.content.insertUnit(it0, { kind: 'fact', text: 'F.' })
    await app.reload()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Items' }).click()
    await page.keyboard.press('j')
    expect(await page.evaluate("document.activeElement?.classList.contains('nav-item') ?? false")).toBe(false)
    await page.getByLabel('Current dataset').selectOption({ label: 'Second dataset' })
    await expect.poll(() => page.evaluate('location.hash')).toBe(`#/items/${other.id}`)
    await page.getByRole('heading', { name: 'Second dataset' }).waitFor()
  })
})
