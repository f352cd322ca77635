import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const DEMO = 'Demo: WikiEval-style'

describe('export from the app', () => {
  it('exports a label just given as CSV, from the menu, into a folder beside the workspace', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    const targetId = await annotate.focusedTargetId()
    await page.keyboard.press('2')
    await annotate.waitSaved()
    const target = app.server.ctx.workspace.db
      .prepare(
        `SELECT i.ext_id AS item, c.variant, u.text AS unit FROM targets t JOIN items i ON i.id = t.item_id
         JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id WHERE t.id = ?`,
      )
      .get(targetId) as { item: string; variant: string; unit: string }

    // File › Export… in the desktop app sends this event; it lands on the dataset's export dialog.
    app.server.ctx.events.emit('app.navigate', { view: 'export' })
    const dialog = page.getByRole('dialog', { name: `Export “${DEMO}”` })
    await dialog.waitFor()
    expect(await page.getByRole('heading', { name: 'Datasets', level: 1 }).count()).toBe(1)
    await dialog.getByLabel('Format').selectOption('csv')
    await dialog.getByLabel('Labels').selectOption('tester')
    // In browser mode a download comes first; the server's folder is the second choice.
    await dialog.getByText('Or write it to a folder on the server’s machine').click()
    const folder = dialog.getByLabel('Folder')
    await expect.poll(() => folder.inputValue()).toContain(`${dirname(app.workspaceFile)}/exports/`)
    await dialog.getByRole('button', { name: 'Write to this folder' }).click()

    const written = dialog.getByRole('list', { name: 'Written files' }).getByRole('listitem')
    await expect.poll(() => written.count()).toBe(2)
    const [dataFile, readme] = await written.allTextContents()
    expect(dataFile?.endsWith('/data.csv')).toBe(true)
    expect(readme?.endsWith('/README.md')).toBe(true)
    await app.shot('export-done')

    const rows = parse(readFileSync(dataFile!, 'utf8'), { columns: true }) as Record<string, string>[]
    const labelled = rows.filter((r) => r.label_tester)
    expect(labelled).toHaveLength(1)
    expect(labelled[0]).toMatchObject({
      item_id: target.item,
      variant: target.variant,
      unit_text: target.unit,
      label_tester: 'false',
    })
    // Only the chosen annotator's column travels.
    expect(Object.keys(rows[0]!).filter((c) => c.startsWith('label_'))).toEqual(['label_tester'])
    expect(readFileSync(readme!, 'utf8')).toContain('tester')

    // A second export into the same folder is refused, in the dialog, and writes nothing.
    await dialog.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('article', { name: DEMO }).getByRole('button', { name: 'Export…' }).click()
    await dialog.getByText('Or write it to a folder on the server’s machine').click()
    await dialog.getByLabel('Folder').fill(dirname(dataFile!))
    await dialog.getByRole('button', { name: 'Write to this folder' }).click()
    await dialog.getByRole('alert').waitFor()
    expect(await dialog.getByRole('alert').textContent()).toContain('already holds files')
    await app.shot('export-refused')
  })

  it('while an export runs, its footer names the destination under way and offers only Cancel export', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    await page.getByRole('article', { name: DEMO }).getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: `Export “${DEMO}”` })
    await dialog.waitFor()
    const footer = dialog.locator('footer')

    // Each request is held until the footer has been read, so the dialog stays busy meanwhile.
    const held: Array<() => Promise<void>> = []
    for (const call of ['exports.dataset', 'exports.download'])
      await page.route(`**/api/call/${call}`, (route) => {
        held.push(() => route.continue())
      })
    const release = async () => {
      for (const go of held.splice(0)) await go()
    }

    await dialog.getByText('Or write it to a folder on the server’s machine').click()
    await dialog.getByRole('button', { name: 'Write to this folder' }).click()
    await expect.poll(() => held.length).toBe(1)
    await dialog.getByRole('button', { name: 'Cancel export' }).waitFor()
    expect(await footer.getByRole('button').allTextContents()).toEqual(['Exporting…'])
    expect(await dialog.getByText('Preparing the download…').count()).toBe(0)
    await app.shot('export-writing-footer')
    await release()
    await dialog.getByRole('list', { name: 'Written files' }).waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()

    await page.getByRole('article', { name: DEMO }).getByRole('button', { name: 'Export…' }).click()
    await dialog.getByRole('button', { name: 'Download' }).click()
    await expect.poll(() => held.length).toBe(1)
    await dialog.getByRole('button', { name: 'Cancel export' }).waitFor()
    expect(await footer.getByRole('button').allTextContents()).toEqual(['Preparing the download…'])
    await release()
    await dialog.getByText(/^Downloaded /).waitFor()
    // Before an export starts, the footer still offers Cancel to leave the dialog.
    await dialog.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('article', { name: DEMO }).getByRole('button', { name: 'Export…' }).click()
    // Read once the dialog is drawn again: read at once, it may still be opening (no buttons yet).
    await expect.poll(() => footer.getByRole('button').allTextContents()).toEqual(['Cancel', 'Download'])
  })

  it('bundles my labels to a file and merges a bundle picked in the browser', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open(DEMO)
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Datasets' }).click()
    const card = page.getByRole('article', { name: DEMO })

    await card.getByRole('button', { name: 'Bundle my labels' }).click()
    const bundleDialog = page.getByRole('dialog', { name: 'Bundle tester’s labels' })
    // In browser mode the bundle is a download, for this person to send on.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      bundleDialog.getByRole('button', { name: 'Download bundle' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/-tester\.bundle\.jsonl$/)
    const file = await download.path()
    await bundleDialog
      .getByRole('status')
      .getByText(/^Downloaded/)
      .waitFor()
    const lines = readFileSync(file!, 'utf8').trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[1]!)).toMatchObject({ verdict: 'true' })
    await bundleDialog.getByRole('button', { name: 'Done' }).click()

    // Merging it back into the same workspace finds the label already there.
    await card.getByRole('button', { name: 'Merge a bundle…' }).click()
    const mergeDialog = page.getByRole('dialog', { name: `Merge a bundle into “${DEMO}”` })
    await mergeDialog.getByLabel('Bundle file').setInputFiles(file!)
    await mergeDialog.getByRole('button', { name: 'Merge', exact: true }).click()
    await expect.poll(() => mergeDialog.getByTestId('merge-unchanged').textContent()).toBe('1')
    expect(await mergeDialog.getByTestId('merge-added').textContent()).toBe('0')
    await app.shot('merge-done')
  })
})
