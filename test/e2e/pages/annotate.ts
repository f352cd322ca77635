import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

/** The annotate screen as a test sees it: units, verdicts, panes, the saved state. */
export class AnnotatePage {
  constructor(readonly page: Page) {}

  async open(datasetName: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Datasets' }).click()
    await this.page
      .getByRole('article', { name: datasetName })
      .getByRole('button', { name: 'Annotate' })
      .click()
    await this.units.first().waitFor()
  }

  get units(): Locator {
    return this.page.getByRole('listbox', { name: 'Units' }).getByRole('option')
  }

  get focused(): Locator {
    return this.page.locator('.unit[aria-selected="true"]')
  }

  async focusedTargetId(): Promise<number> {
    const id = await this.focused.getAttribute('id')
    return Number(id?.replace('unit-', ''))
  }

  saveState(): Locator {
    return this.page.locator('.save-state')
  }

  async waitSaved(): Promise<void> {
    await this.page.locator('.save-state.saved').waitFor()
  }

  pane(which: 'reference' | 'candidate'): Locator {
    return this.page.locator(`.pane-text[data-pane="${which}"]`)
  }

  /**
   * Selects [start, end) of a pane's text the way a mouse drag would. Page-side code is passed
   * as source text: the test project compiles without the DOM library.
   */
  async select(which: 'reference' | 'candidate', start: number, end: number): Promise<string> {
    return this.page.evaluate(`(() => {
      const node = document.querySelector('.pane-text[data-pane="${which}"]').firstChild
      const range = document.createRange()
      range.setStart(node, ${Number(start)})
      range.setEnd(node, ${Number(end)})
      const sel = window.getSelection()
      sel.removeAllRanges()
      sel.addRange(range)
      return range.toString()
    })()`)
  }

  /** The text of each range a named CSS highlight currently paints. */
  async highlighted(name: string): Promise<string[]> {
    return this.page.evaluate(`(() => {
      const h = CSS.highlights.get(${JSON.stringify(name)})
      return h ? [...h].map((r) => r.toString()) : []
    })()`)
  }

  async verdictOf(index: number): Promise<string | null> {
    return this.units.nth(index).getAttribute('data-verdict')
  }

  async expectFocusedIndex(index: number): Promise<void> {
    await expect.poll(() => this.units.nth(index).getAttribute('aria-selected')).toBe('true')
  }
}
