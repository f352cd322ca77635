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

// The Compare view, the `metrics` CLI (JSON and report) carry the same agreement figures: their
// by-variant rows come in the dataset's order too, with the numbers unchanged.
it("lists agreement by variant in the dataset's order in Compare, `metrics --json` and the report", async () => {
  const fx = makeFixture(tmp(), {
    items: 3,
    variants: ['zeta_answer', 'alpha_answer', 'mid_answer'],
    facts: 1,
  })
  fx.labelAll(
    'ana',
    fx.targets.map(() => 'true'),
  )
  fx.labelAll(
    'bob',
    fx.targets.map((_, i) => (i % 2 ? 'true' : 'false')),
  )
  const file = fx.db.name
  fx.db.close()
  const order = ['zeta_answer', 'alpha_answer', 'mid_answer']
  type Agreement = { byVariant: Record<string, { n: number; percent: number | null }> }
  const app = apps(file)
  const summary = await app.value<Agreement>('agreement.summary', { datasetId: fx.datasetId })
  const compare = await app.value<{ agreement: Agreement }>('metrics.compare', { datasetId: fx.datasetId })
  expect(Object.keys(compare.agreement.byVariant)).toEqual(order)
  expect(compare.agreement.byVariant).toEqual(summary.byVariant)
  app.ctx.close()
  const json = await cli(['metrics', '--workspace', file, '--dataset', String(fx.datasetId), '--json'])
  expect(json.code, json.err).toBe(0)
  const cliAgreement = (JSON.parse(json.out) as { agreement: { by_variant: object } }).agreement
  expect(Object.keys(cliAgreement.by_variant)).toEqual(order)
  const md = await cli(['metrics', '--workspace', file, '--dataset', String(fx.datasetId)])
  expect(md.code, md.err).toBe(0)
  const table = md.out.slice(md.out.indexOf('Inter-annotator agreement'))
  const rows = table.split('\n').filter((l) => order.some((v) => l.startsWith(`| ${v} `)))
  expect(rows.map((l) => l.split(' ')[1])).toEqual(order)
})
