import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { TOKEN_HEADER } from '../../src/shared/contract'
import { seedBulk } from '../annotate/bulk'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()
const FIXTURES = 'test/fixtures/import'

describe('the workbench in the browser', () => {
  it('on an empty workspace asks who is labelling, then offers an import', async () => {
    const app = await start({ demo: false, annotator: null })
    const { page } = app
    const gate = page.getByRole('dialog', { name: 'Who is labelling?' })
    await gate.waitFor()
    await app.shot('start-who-is-labelling')
    await gate.getByLabel('New annotator').fill('Noor')
    await page.keyboard.press('Enter')
    await gate.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'No datasets yet' }).waitFor()
    expect(await page.locator('.who-name').textContent()).toBe('Noor')
    await app.shot('datasets-empty')
  })

  it('imports a QAGS-style file through the wizard and labels it by keyboard', async () => {
    const app = await start()
    const { page } = app
    await page.getByRole('button', { name: 'Import dataset…' }).click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles(`${FIXTURES}/qags.jsonl`)
    await wizard.getByText('the columns look like qags').waitFor()
    await wizard
      .getByRole('cell', { name: /Fenwick library will close/ })
      .first()
      .waitFor()
    await wizard.getByLabel('Dataset name').fill('QAGS sample')
    await app.shot('import-wizard')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “QAGS sample”/).waitFor()
    await wizard.getByRole('button', { name: 'Open the dataset' }).click()
    await page.getByRole('heading', { name: 'QAGS sample' }).waitFor()
    await app.shot('items-qags')

    await page.getByRole('button', { name: 'Annotate next unlabelled' }).click()
    const annotate = new AnnotatePage(page)
    await annotate.units.first().waitFor()
    expect(await page.locator('.verdict').allTextContents()).toEqual(['1Consistent', '2Inconsistent'])
    const before = await annotate.units.count()
    for (let i = 0; i < before; i++) {
      await page.keyboard.press(i === 1 ? '2' : '1')
      await annotate.waitSaved()
    }
    expect(await annotate.verdictOf(0)).toBe('consistent')
    expect(await annotate.verdictOf(1)).toBe('inconsistent')
    // Enter carries on into the next article.
    await page.keyboard.press('Enter')
    await page.getByText('Item 2 of').waitFor()
    await page.keyboard.press('1')
    await annotate.waitSaved()
    await app.shot('annotate-qags')
    const n = app.server.ctx.workspace.db
      .prepare(
        `SELECT COUNT(*) AS n FROM labels l JOIN annotators a ON a.id = l.annotator_id
         WHERE a.name = 'tester' AND l.verdict IS NOT NULL`,
      )
      .get() as { n: number }
    expect(n.n).toBe(before + 1)
  })

  it('imports a file of unknown layout through a hand-made column mapping', async () => {
    const app = await start()
    const { page } = app
    const csv = [
      'prompt,gold,model_output,claims',
      '"Where is the Fenwick library?","The Fenwick library is on Mill Street.","It is on Mill Street.","- The library is on Mill Street.\n- The library is open on Sundays."',
    ].join('\n')
    await page.getByRole('button', { name: 'Import dataset…' }).click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard
      .getByLabel('Dataset file')
      .setInputFiles({ name: 'custom.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await wizard.getByText('no known layout detected').waitFor()
    await wizard.getByLabel('Question').selectOption('prompt')
    await wizard.getByLabel('Reference').selectOption('gold')
    await wizard.getByRole('button', { name: '+ Add an answer column' }).click()
    await wizard.getByLabel('Variant name 1').fill('model')
    await wizard.locator('#map-cand-0').selectOption('model_output')
    await wizard.getByLabel('Facts').selectOption('claims')
    await app.shot('import-custom-mapping')
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “custom”: 1 item, 1 answer, 2 units/).waitFor()
    await wizard.getByRole('button', { name: 'Open the dataset' }).click()
    await page.getByRole('button', { name: 'Annotate next unlabelled' }).click()
    const annotate = new AnnotatePage(page)
    await annotate.units.first().waitFor()
    expect(await annotate.units.allTextContents()).toEqual([
      expect.stringContaining('The library is on Mill Street.'),
      expect.stringContaining('The library is open on Sundays.'),
    ])
    await page.keyboard.press('1')
    await page.keyboard.press('2')
    await annotate.waitSaved()
    expect([await annotate.verdictOf(0), await annotate.verdictOf(1)]).toEqual(['true', 'false'])
  })

  it('shows the importer’s report and imports nothing when a row is bad', async () => {
    const app = await start()
    const { page } = app
    const good = readFileSync(`${FIXTURES}/qags.jsonl`, 'utf8').trim().split('\n')
    const bad = [good[0], '{"article": "x", "summary_sentences": []}', good[1]].join('\n')
    await page.getByRole('button', { name: 'Import dataset…' }).click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard
      .getByLabel('Dataset file')
      .setInputFiles({ name: 'broken.jsonl', mimeType: 'application/json', buffer: Buffer.from(bad) })
    await wizard.getByText('the columns look like qags').waitFor()
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    const alert = wizard.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/Nothing was imported.*broken\.jsonl.*line 2/s)
    expect(await alert.textContent()).not.toContain('factlab-upload-')
    await app.shot('import-error')
    const datasets = app.server.ctx.workspace.db.prepare('SELECT COUNT(*) AS n FROM datasets').get() as {
      n: number
    }
    expect(datasets.n).toBe(1)
  })

  it('filters the items table and opens an item to annotate', async () => {
    const app = await start()
    const { page } = app
    await page.getByRole('button', { name: 'Items', exact: true }).first().click()
    const rows = page.locator('.tbody .tr')
    // Placeholder rows stand in while the page loads: wait for the items themselves.
    await expect.poll(() => rows.count()).toBe(12)
    await page.getByLabel('Search').fill('mirror')
    await expect.poll(() => rows.count()).toBeLessThan(12)
    await page.getByLabel('Search').fill('')
    await page.getByRole('button', { name: 'Disputed' }).click()
    await expect.poll(() => rows.count()).toBeLessThan(12)
    await app.shot('items')
    await page.getByRole('button', { name: 'Not yet labelled by me' }).click()
    await expect.poll(() => rows.count()).toBe(12)
    await rows.nth(2).click()
    await page.getByText('Item 3 of 12').waitFor()
  })

  it('scrolls a 20,000-item table with only the visible rows in the page', async () => {
    const app = await start()
    const { page } = app
    // The number of items is what this is about: one short fact per answer keeps the seeding (on
    // the server's own thread) a fifth of the time six long ones took, which under load outran
    // the test's timeout.
    const datasetId = seedBulk(app.server.ctx.workspace, 20_000, 'Big', { facts: 1, textChars: 40 })
    await page.goto(`${app.server.origin}/#/items/${datasetId}`)
    await page.getByText('20,000 items').waitFor()
    const rows = page.locator('.tbody .tr')
    await rows.first().waitFor()
    expect(await rows.count()).toBeLessThan(80)
    await page.locator('.tbody').evaluate((el) => {
      el.scrollTop = el.scrollHeight
    })
    await page.getByText('Question 19999?').waitFor()
    expect(await rows.count()).toBeLessThan(80)
    await app.shot('items-20k')
    await page.getByText('Question 19999?').click()
    await page.getByText('Item 20000 of 20000').waitFor()
  })

  it('keeps settings, switches theme and annotator', async () => {
    const app = await start({ colorScheme: 'dark' })
    const { page } = app
    const annotate = new AnnotatePage(page)
    await annotate.open('Demo: WikiEval-style')
    await app.shot('annotate-dark')
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Light' }).click()
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light')
    await app.shot('settings')
    await page.getByRole('button', { name: 'Switch or add annotator…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Who is labelling?' })
    await dialog.getByRole('button', { name: 'alex', exact: true }).click()
    await page.locator('.who-name', { hasText: 'alex' }).waitFor()
    // A name added from Settings labels at once, everywhere: nobody is asked again.
    await page.getByRole('button', { name: 'Switch or add annotator…' }).click()
    await dialog.getByLabel('New annotator').fill('Nina')
    await dialog.getByRole('button', { name: 'Start labelling' }).click()
    await page.locator('.who-name', { hasText: 'Nina' }).waitFor()
    await page.getByRole('button', { name: 'Datasets' }).click()
    await page.getByRole('heading', { name: 'Datasets' }).waitFor()
    expect(await dialog.count()).toBe(0)
    expect(await page.locator('.who-name').textContent()).toBe('Nina')
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Switch or add annotator…' }).click()
    await dialog.getByRole('button', { name: 'alex', exact: true }).click()
    await page.locator('.who-name', { hasText: 'alex' }).waitFor()
    await app.reload()
    await page.locator('.who-name', { hasText: 'alex' }).waitFor()
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light')
  })

  it('refuses calls without the token or with a forged Host', async () => {
    const app = await start()
    const noToken = await app.page.evaluate(`fetch('/api/call/datasets.list', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status)`)
    expect([401, 403]).toContain(noToken)
    const forged = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: app.server.port,
          path: '/api/call/datasets.list',
          method: 'POST',
          headers: {
            host: 'attacker.example',
            'content-type': 'application/json',
            [TOKEN_HEADER]: app.server.token,
          },
        },
        (res) => resolve(res.statusCode ?? 0),
      )
      req.on('error', reject)
      req.end('{}')
    })
    expect(forged).toBeGreaterThanOrEqual(400)
  })
})
