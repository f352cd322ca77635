import { describe, expect, it } from 'vitest'
import { createHiddenDataset } from '../../src/main/import/hidden'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'

const openApp = testApps()

describe('a dataset still being imported', () => {
  it('is refused by id, like a missing one, by every call that reads or writes a dataset', async () => {
    const { ctx, call, value } = openApp()
    const { db, content } = ctx.workspace
    const ready = createDataset(db, { name: 'ready', labelSchema: FAAF_SCHEMA }).id
    const hidden = createHiddenDataset(db, { name: 'half', labelSchema: FAAF_SCHEMA })
    const targets = [ready, hidden].map((ds) => {
      const item = content.insertItem(ds, { extId: 'a', reference: 'Some text.' }, 0)
      const candidate = content.insertCandidate(item, { variant: 'sys', text: 'A claim.' })
      const unit = content.insertUnit(item, { kind: 'sentence', text: 'A claim.', candidateId: candidate })
      return content.targetId(unit, candidate)!
    })
    const annotatorId = ensureAnnotator(db, 'ana').id
    // Someone other than the labeller decides: an adjudicator may not decide a target they labelled.
    const adjudicatorId = ensureAnnotator(db, 'ada').id
    const config = await value<{ id: number }>('judges.saveConfig', {
      name: 'rouge-L',
      provider: 'lexical',
      model: 'rougeL',
      baseUrl: null,
      method: 'lexical',
      settings: { lexicalMetric: 'rougeL', lexicalThreshold: 0.3 },
    })
    const byId: [string, (id: number) => unknown][] = [
      ['datasets.get', (id) => ({ datasetId: id })],
      ['datasets.brief', (id) => ({ datasetId: id })],
      ['datasets.items', (id) => ({ datasetId: id, annotatorId: null })],
      ['units.list', (id) => ({ datasetId: id })],
      ['metrics.labelNext', (id) => ({ datasetId: id })],
      ['exports.defaults', (id) => ({ datasetId: id })],
      ['judges.start', (id) => ({ datasetId: id, configId: config.id })],
      ['annotate.next', (id) => ({ datasetId: id, annotatorId })],
      ['agreement.summary', (id) => ({ datasetId: id })],
      ['agreement.queue', (id) => ({ datasetId: id })],
    ]
    for (const [name, input] of byId) {
      const shown = await call(name, input(ready))
      expect({ name, ok: shown.ok }).toEqual({ name, ok: true })
      const refused = await call(name, input(hidden))
      expect({ name, refused: refused.ok ? null : refused.error.message }).toEqual({
        name,
        refused: expect.stringContaining(`No dataset with id ${hidden}`),
      })
    }
    const save = (targetId: number) => call('annotate.save', { targetId, annotatorId, verdict: 'true' })
    expect(await save(targets[0]!)).toMatchObject({ ok: true })
    expect(await save(targets[1]!)).toMatchObject({
      ok: false,
      error: {
        code: 'not_found',
        message: expect.stringContaining(`No target with id ${targets[1]}: its unit is no longer`),
      },
    })
    const decide = (targetId: number) =>
      call('agreement.adjudicate', { targetId, verdict: 'true', adjudicatorId })
    expect(await decide(targets[0]!)).toMatchObject({ ok: true })
    expect(await decide(targets[1]!)).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: `No target with id ${targets[1]}` },
    })
    // No run may hold the half-imported dataset: withdrawing it would take the run's verdicts too.
    expect(db.prepare('SELECT COUNT(*) AS n FROM runs WHERE dataset_id = ?').get(hidden)).toEqual({ n: 0 })
  })

  it('keeps its units out of reach of the unit calls by id', async () => {
    const { ctx, call } = openApp()
    const { db, content } = ctx.workspace
    const units = [
      createDataset(db, { name: 'ready', labelSchema: FAAF_SCHEMA }).id,
      createHiddenDataset(db, { name: 'half', labelSchema: FAAF_SCHEMA }),
    ].map((ds) => {
      const item = content.insertItem(ds, { extId: 'a', reference: 'Some text.' }, 0)
      return content.insertUnit(item, { kind: 'fact', text: 'A fact.' })
    })
    const edit = (unitId: number) => call('units.edit', { unitId, text: 'A fact, reworded.' })
    expect(await edit(units[0]!)).toMatchObject({ ok: true })
    expect(await edit(units[1]!)).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: `No unit with id ${units[1]}` },
    })
    expect(db.prepare('SELECT text FROM units WHERE id = ?').get(units[1])).toEqual({ text: 'A fact.' })
  })
})
