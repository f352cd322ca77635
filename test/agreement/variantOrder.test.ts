import { expect, it } from 'vitest'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()
const apps = testApps()

// Metrics, Compare, reports and the Project view list variants as the dataset holds them; the
// Agreement view's by-variant rows (and `factlab call agreement.summary`) follow the same order.
it("lists agreement by variant in the dataset's order, not alphabetically, in the app and the CLI", async () => {
  const fx = makeFixture(tmp(), {
    items: 2,
    variants: ['zeta_answer', 'alpha_answer', 'mid_answer'],
    facts: 1,
  })
  fx.labelAll(
    'ana',
    fx.targets.map(() => 'true'),
  )
  fx.labelAll(
    'bob',
    fx.targets.map(() => 'true'),
  )
  const file = fx.db.name
  fx.db.close()
  const order = ['zeta_answer', 'alpha_answer', 'mid_answer']
  const app = apps(file)
  for (const input of [{ datasetId: fx.datasetId }, { datasetId: fx.datasetId, includeControls: true }]) {
    const summary = await app.value<{ byVariant: Record<string, unknown> }>('agreement.summary', input)
    expect(Object.keys(summary.byVariant)).toEqual(order)
  }
  app.ctx.close()
  const r = await cli([
    'call',
    'agreement.summary',
    JSON.stringify({ datasetId: fx.datasetId }),
    '--workspace',
    file,
  ])
  expect(r.code, r.err).toBe(0)
  expect(Object.keys((JSON.parse(r.out) as { byVariant: object }).byVariant)).toEqual(order)
})
