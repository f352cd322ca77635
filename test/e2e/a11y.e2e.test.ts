import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

/** Whether the focused element sits inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(`!!document.activeElement && !!document.activeElement.closest('dialog[open]')`)

/**
 * Whether the focus is anywhere but on the page behind the dialog. Past the dialog's last
 * control the browser passes the focus to its own toolbar (the page then reports <body>) before
 * coming back to the dialog's first; it never lands on the page behind.
 */
const notBehind = (page: Page) =>
  page.evaluate(
    `document.activeElement === document.body || !!document.activeElement?.closest('dialog[open]')`,
  )

/**
 * Opens a dialog from the keyboard (focus on its button, Enter), walks it with Tab, closes it
 * with Escape, and says where the focus went at each step.
 */
async function walkDialog(page: Page, opener: Locator, dialog: Locator) {
  await opener.focus()
  await page.keyboard.press('Enter')
  await dialog.waitFor()
  await expect.poll(() => focusInDialog(page)).toBe(true)
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    expect(await notBehind(page)).toBe(true)
  }
  await page.keyboard.press('Shift+Tab')
  expect(await notBehind(page)).toBe(true)
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  await expect.poll(() => opener.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
}

describe('keyboard and screen reader', () => {
  it('dialogs take the focus, keep Tab inside, close on Escape and give the focus back', async () => {
    const app = await start()
    const { page } = app
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Datasets' }).click()
    const card = page.getByRole('article', { name: DEMO })

    await walkDialog(
      page,
      page.getByRole('button', { name: 'Import dataset…' }),
      page.getByRole('dialog', { name: 'Import a dataset' }),
    )
    // Export opens on its first field: the focus lands where the person types.
    await card.getByRole('button', { name: 'Export…' }).focus()
    await page.keyboard.press('Enter')
    const exp = page.getByRole('dialog', { name: /^Export/ })
    await exp.waitFor()
    expect(await page.evaluate(`document.activeElement.tagName`)).not.toBe('BUTTON')
    await page.keyboard.press('Escape')
    await exp.waitFor({ state: 'detached' })
    await walkDialog(page, card.getByRole('button', { name: 'Export…' }), exp)
    await walkDialog(
      page,
      card.getByRole('button', { name: 'Merge a bundle…' }),
      page.getByRole('dialog', { name: /^Merge/ }),
    )
    const gate = page.getByRole('dialog', { name: 'Who is labelling?' })
    await walkDialog(page, page.getByRole('button', { name: /Labelling as/ }), gate)
    // The page behind a dialog cannot be reached: its buttons are inert while it is open.
    await page.getByRole('button', { name: /Labelling as/ }).click()
    await gate.waitFor()
    const behind = page.getByRole('button', { name: 'Import dataset…' })
    expect(
      await behind.evaluate((el) => {
        el.focus()
        return el === el.ownerDocument.activeElement
      }),
    ).toBe(false)
    await page.keyboard.press('Escape')
    await gate.waitFor({ state: 'detached' })
  })

  it('annotate: blind mode, evidence and a note are reached by keyboard', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const blind = page.getByRole('button', { name: /^Blind (on|off)/ })
    expect(await blind.getAttribute('aria-pressed')).toBe('true')
    await page.keyboard.press('b')
    await expect.poll(() => blind.getAttribute('aria-pressed')).toBe('false')
    // Tab reaches the switch, and Enter presses it (not "next unlabelled").
    await blind.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => blind.getAttribute('aria-pressed')).toBe('true')

    // Evidence without a mouse: into the reference text, Shift+→ selects, e attaches.
    const reference = page.getByRole('document', { name: /^Reference text/ })
    await reference.focus()
    for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowRight')
    const selected = (await annotate.pane('reference').textContent())!.slice(0, 6)
    expect(await page.evaluate('String(window.getSelection())')).toBe(selected)
    await page.keyboard.press('e')
    const evidence = annotate.focused.locator('.evidence li')
    await expect.poll(() => evidence.count()).toBe(1)
    expect(await evidence.locator('q').textContent()).toBe(selected)
    // Arrows inside the text move the caret, not the focused unit.
    const focused = await annotate.focusedTargetId()
    await page.keyboard.press('ArrowDown')
    expect(await annotate.focusedTargetId()).toBe(focused)
    // The remove button is a Tab stop with a name; Shift+E removes the last piece by key.
    expect(await annotate.focused.getByRole('button', { name: 'Remove this evidence' }).isVisible()).toBe(
      true,
    )
    await page.keyboard.press('Shift+E')
    await expect.poll(() => evidence.count()).toBe(0)

    // A saved note is a button: Enter on it opens the note again.
    await page.keyboard.press('n')
    const note = page.getByRole('dialog', { name: 'Note' })
    await note.getByRole('textbox', { name: 'Note' }).fill('check the date')
    await page.keyboard.press('Control+Enter')
    await note.waitFor({ state: 'detached' })
    const saved = annotate.focused.getByRole('button', { name: 'Edit the note: check the date' })
    await saved.focus()
    await page.keyboard.press('Enter')
    await note.waitFor()
    expect(await note.getByRole('textbox', { name: 'Note' }).inputValue()).toBe('check the date')
    await page.keyboard.press('Escape')
    await note.waitFor({ state: 'detached' })
    await expect.poll(() => saved.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
    await app.shot('a11y-annotate')
  })

  it('a label not saved yet says so in words, not only in colour', async () => {
    const app = await start()
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    // The server cannot be reached: the label waits to be sent again.
    await page.route('**/api/call/annotate.save', (route) => route.abort())
    await page.keyboard.press('1')
    const first = annotate.units.first()
    await expect.poll(() => first.getByTestId('unsaved').textContent()).toBe('⚠ True (not saved yet)')
    expect(await first.ariaSnapshot()).toContain('not saved yet')
    await page.unroute('**/api/call/annotate.save')
    // The server answers again: the person moves on to the next item, and that call getting
    // through sends the waiting label at once (it does not sit out its retry pause, up to 5 s).
    const unitId = await first.getAttribute('id')
    await page.keyboard.press(']')
    await page.locator(`#${unitId}`).waitFor({ state: 'detached' })
    await annotate.waitSaved()
    // Back on the first item the label is there, stored, with no mark: nothing is lost.
    await page.keyboard.press('[')
    await page.locator(`#${unitId}[data-verdict="true"]`).waitFor()
    expect(await page.locator(`#${unitId}`).getByTestId('unsaved').count()).toBe(0)
  })

  it('progress bars and tables have names', async () => {
    const app = await start()
    const { page } = app
    const nav = (name: string) =>
      page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click()
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await nav('Datasets')
    await page
      .getByRole('article', { name: DEMO })
      .getByRole('progressbar', { name: 'Labelled by tester' })
      .waitFor()
    await nav('Judges')
    await page.getByRole('table', { name: 'Runs' }).waitFor()
    const bars = page
      .getByRole('table', { name: 'Runs' })
      .getByRole('progressbar', { name: /^Progress of run #\d+$/ })
    await expect.poll(() => bars.count()).toBeGreaterThan(0)
    await nav('Compare')
    await page.getByRole('table', { name: 'Judges and humans' }).waitFor()
    await page.getByRole('table', { name: /^Binary confusion matrix of / }).waitFor()
    await nav('Project')
    await page.getByRole('table', { name: 'Annotators' }).waitFor()
  })
})
