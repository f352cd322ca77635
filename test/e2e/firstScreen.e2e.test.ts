import { describe, expect, it } from 'vitest'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { appSessions } from './harness'

const start = appSessions()

describe('the first screen', () => {
  it('lists who may label from the first answers, and asks afresh when switching', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    // A new window on this workspace: nobody chosen yet.
    await page.evaluate(() => localStorage.clear())
    const calls: string[] = []
    page.on('request', (r) => {
      const m = /\/api\/call\/([\w.]+)/.exec(r.url())
      if (m?.[1]) calls.push(m[1])
    })
    await app.reload()
    const gate = page.getByRole('dialog', { name: 'Who is labelling?' })
    await gate.getByRole('button', { name: 'tester', exact: true }).waitFor()
    // One read each: the gate shows the window's answers instead of asking again after the
    // datasets list (a second round trip, most of a second at a million targets).
    expect(calls.filter((c) => c === 'workspace.annotators')).toEqual(['workspace.annotators'])
    expect(calls.filter((c) => c === 'workspace.labellers')).toEqual(['workspace.labellers'])
    // The datasets list behind the gate has its progress, so every first read has been made:
    // the window and the list share the names, the window and the label saver the workspace file.
    await page.locator('article.dataset-card:not([aria-busy])').first().waitFor()
    expect(calls.filter((c) => c === 'datasets.names')).toEqual(['datasets.names'])
    expect(calls.filter((c) => c === 'workspace.info')).toEqual(['workspace.info'])
    await app.shot('first-screen-1440')
    await page.setViewportSize({ width: 1024, height: 768 })
    await app.shot('first-screen-1024')
    await gate.getByRole('button', { name: 'tester', exact: true }).click()
    await gate.waitFor({ state: 'detached' })

    // Someone added in another window since the first read is there when switching.
    ensureAnnotator(app.server.ctx.workspace.db, 'late colleague')
    await page.getByTitle('Switch annotator').click()
    await page
      .getByRole('dialog', { name: 'Who is labelling?' })
      .getByRole('button', { name: 'late colleague', exact: true })
      .waitFor()
  })

  it('keeps the access token for reloads and takes it out of the address bar', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).waitFor()
    // Kept once the first screen is drawn, not before its first calls.
    await expect.poll(() => new URL(page.url()).searchParams.has('token')).toBe(false)
    await app.reload()
    // The list's progress came back: its call carried the kept token.
    await page.locator('article.dataset-card:not([aria-busy])').first().waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
  })

  it('keeps the access token when the page is left before it was ever idle', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    // A page that never idles (a busy machine, or a person quick with a link or the address bar)
    // leaves with the token still only in its URL.
    await page.addInitScript(() => {
      // The tests' tsconfig has no DOM types: the page's global is reached through globalThis.
      Object.assign(globalThis, { requestIdleCallback: () => 0 })
    })
    await page.evaluate(() => sessionStorage.clear())
    await page.goto(app.server.url)
    await page.locator('article.dataset-card:not([aria-busy])').first().waitFor()
    expect(new URL(page.url()).searchParams.has('token')).toBe(true)
    // Another address on the same server without the token: a new page, which reads the kept one.
    await page.goto(`${app.server.origin}/#/datasets`)
    await page.locator('article.dataset-card:not([aria-busy])').first().waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
  })
})
