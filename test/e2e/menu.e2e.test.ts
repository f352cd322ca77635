import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'
import { AnnotatePage } from './pages/annotate'

const start = appSessions()

describe('desktop menu commands', () => {
  // The Electron menu sends these events; browser mode delivers the same events over SSE.
  it('File › Import… opens the import wizard and Switch Annotator… the annotator picker, from any view', async () => {
    const app = await start({ annotator: 'tester' })
    const { page } = app
    await new AnnotatePage(page).open('Demo: WikiEval-style')

    app.server.ctx.events.emit('app.navigate', { view: 'import' })
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.waitFor()
    expect(await page.getByRole('heading', { name: 'Datasets', level: 1 }).count()).toBe(1)
    await wizard.getByRole('button', { name: 'Close' }).click()

    app.server.ctx.events.emit('app.navigate', { view: 'annotator' })
    await page.getByRole('dialog', { name: 'Who is labelling?' }).waitFor()
    await app.shot('menu-switch-annotator')
  })
})
