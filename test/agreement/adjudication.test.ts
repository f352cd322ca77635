import { describe, expect, it } from 'vitest'
import { resolveGold } from '../../src/main/labels/gold'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { editUnit } from '../../src/main/units/edit'
import type { QueuePage } from '../../src/shared/contract/agreement'
import { FAAF_SCHEMA, numericSchema } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'

const openApp = testApps()

/**
 * Two candidates × two facts = four targets. ana and ben agree on t0, disagree on t1 and t2
 * (t2 also with evidence), and only ana labelled t3.
 */
function seed() {
  const app = openApp()
  const ctx = app.ctx
  const { db, content, labels } = ctx.workspace
  const ds = createDataset(db, { name: 'wiki', labelSchema: FAAF_SCHEMA })
  const item = content.insertItem(
    ds.id,
    { extId: 'q1', question: 'When?', reference: 'It opened in 1937.' },
    0,
  )
  const good = content.insertCandidate(item, { variant: 'answer', text: 'It opened in 1937.' })
  const poor = content.insertCandidate(item, { variant: 'poor_answer', text: 'It opened long ago.' })
  const f1 = content.insertUnit(item, { kind: 'fact', text: 'It opened in 1937' })
  const f2 = content.insertUnit(item, { kind: 'fact', text: 'It opened' })
  const t = [content.targetId(f1, good)!, content.targetId(f1, poor)!, content.targetId(f2, poor)!]
  const t3 = content.targetId(f2, good)!
  const ana = ensureAnnotator(db, 'ana')
  const ben = ensureAnnotator(db, 'ben')
  const judge = ensureAnnotator(db, 'judy')
  const save = (targetId: number, annotatorId: number, verdict: string, extra = {}) =>
    labels.save({ targetId, annotatorId, verdict, ...extra })
  save(t[0]!, ana.id, 'true')
  save(t[0]!, ben.id, 'true')
  save(t[1]!, ana.id, 'false')
  save(t[1]!, ben.id, 'not_clear', { note: 'vague' })
  save(t[2]!, ana.id, 'true', { evidence: [{ pane: 'candidate', start: 0, end: 9 }] })
  save(t[2]!, ben.id, 'false')
  save(t3, ana.id, 'true')
  return { ctx, ds, t, t3, f1, f2, ana, ben, judge, call: app.value }
}

describe('adjudication queue', () => {
  it('lists only disputed targets, with each annotator’s verdict, evidence and note', async () => {
    const s = seed()
    const q = (await s.call('agreement.queue', { datasetId: s.ds.id })) as QueuePage
    expect(q).toMatchObject({ open: 2, adjudicated: 0, total: 2 })
    expect(q.entries.map((e) => e.targetId)).toEqual([s.t[1], s.t[2]])
    const e = q.entries[1]!
    expect(e).toMatchObject({
      extId: 'q1',
      reference: 'It opened in 1937.',
      candidate: { variant: 'poor_answer', text: 'It opened long ago.' },
      unit: { text: 'It opened', kind: 'fact', version: 1 },
      gold: null,
    })
    expect(e.labels.map((l) => [l.annotator, l.verdict, l.evidence])).toEqual([
      ['ana', 'true', [{ pane: 'candidate', start: 0, end: 9 }]],
      ['ben', 'false', []],
    ])
    expect(q.entries[0]!.labels[1]!.note).toBe('vague')
  })

  it('makes the adjudicator’s decision gold and moves the target to the adjudicated list', async () => {
    const s = seed()
    const r = (await s.call('agreement.adjudicate', {
      targetId: s.t[1],
      verdict: 'false',
      adjudicatorId: s.judge.id,
      note: ' vague is not support ',
    })) as { open: number; gold: { verdict: string; adjudicator: string; note: string } }
    expect(r).toMatchObject({
      open: 1,
      gold: { verdict: 'false', adjudicator: 'judy', note: 'vague is not support' },
    })
    expect(resolveGold(s.ctx.workspace.db, s.ds.id).get(s.t[1]!)).toMatchObject({
      verdict: 'false',
      source: 'adjudicated',
    })
    const openQ = (await s.call('agreement.queue', { datasetId: s.ds.id })) as QueuePage
    expect(openQ.entries.map((e) => e.targetId)).toEqual([s.t[2]])
    const done = (await s.call('agreement.queue', { datasetId: s.ds.id, status: 'adjudicated' })) as QueuePage
    expect(done.entries.map((e) => [e.targetId, e.gold?.verdict])).toEqual([[s.t[1], 'false']])
  })

  it('tells listeners that gold changed', async () => {
    const s = seed()
    const seen: unknown[] = []
    s.ctx.events.subscribe((name, payload) => seen.push([name, payload]))
    await s.call('agreement.adjudicate', { targetId: s.t[2], verdict: 'true', adjudicatorId: s.judge.id })
    expect(seen).toEqual([['labels.changed', { datasetId: s.ds.id, targetIds: [s.t[2]] }]])
  })

  it('refuses a verdict outside the label schema, and changes nothing', async () => {
    const s = seed()
    await expect(
      s.call('agreement.adjudicate', { targetId: s.t[1], verdict: 'maybe', adjudicatorId: s.judge.id }),
    ).rejects.toThrow(/bad_input: "maybe" is not one of "true", "false", "not_clear"/)
    await expect(
      s.call('agreement.adjudicate', { targetId: s.t[1], verdict: 'true', adjudicatorId: 999 }),
    ).rejects.toThrow(/not_found: No annotator/)
    const q = (await s.call('agreement.queue', { datasetId: s.ds.id })) as QueuePage
    expect(q.open).toBe(2)
  })

  it('drops a target whose unit was edited: the new version has no labels yet', async () => {
    const s = seed()
    editUnit(s.ctx.workspace.db, s.f2, 'It opened at some point')
    const q = (await s.call('agreement.queue', { datasetId: s.ds.id })) as QueuePage
    expect(q.entries.map((e) => e.targetId)).toEqual([s.t[1]])
    await expect(
      s.call('agreement.adjudicate', { targetId: s.t[2], verdict: 'true', adjudicatorId: s.judge.id }),
    ).rejects.toThrow(/conflict: .*current version/)
  })

  it('filters by variant and pages', async () => {
    const s = seed()
    const q = (await s.call('agreement.queue', {
      datasetId: s.ds.id,
      variant: 'poor_answer',
      offset: 1,
      limit: 1,
    })) as QueuePage
    expect(q.total).toBe(2)
    expect(q.entries.map((e) => e.targetId)).toEqual([s.t[2]])
  })

  it('compares numeric verdicts as numbers', async () => {
    const app = openApp()
    const { db, content, labels } = app.ctx.workspace
    const ds = createDataset(db, { name: 'msr', labelSchema: numericSchema('similarity', 0, 5, 3) })
    const item = content.insertItem(ds.id, { extId: 'p1', reference: 'A cat sat.' }, 0)
    const cand = content.insertCandidate(item, { variant: 'sentence2', text: 'A cat was sitting.' })
    const u1 = content.insertUnit(item, { kind: 'whole', text: 'A cat was sitting.', candidateId: cand })
    const u2 = content.insertUnit(item, { kind: 'whole', text: 'A cat was sitting!', candidateId: cand })
    const [a, b] = [ensureAnnotator(db, 'a'), ensureAnnotator(db, 'b')]
    const t1 = content.targetId(u1, cand)!
    const t2 = content.targetId(u2, cand)!
    labels.save({ targetId: t1, annotatorId: a.id, verdict: '4' })
    labels.save({ targetId: t1, annotatorId: b.id, verdict: '4.0' })
    labels.save({ targetId: t2, annotatorId: a.id, verdict: '4' })
    labels.save({ targetId: t2, annotatorId: b.id, verdict: '2' })
    const r = await app.call('agreement.queue', { datasetId: ds.id })
    expect(r.ok && (r.value as QueuePage).entries.map((e) => e.targetId)).toEqual([t2])
    const bad = await app.call('agreement.adjudicate', {
      targetId: t2,
      verdict: '7',
      adjudicatorId: a.id,
    })
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input', message: '7 is outside 0–5' } })
  })
})

describe('agreement summary', () => {
  it('reports percent agreement, κ per pair and α over the labelled targets', async () => {
    const s = seed()
    const sum = (await s.call('agreement.summary', { datasetId: s.ds.id })) as {
      n: number
      percent: number
      alphaLevel: string
      cohenPairs: { a: string; b: string; n: number }[]
      byVariant: Record<string, { n: number; percent: number }>
    }
    expect(sum).toMatchObject({ n: 3, alphaLevel: 'nominal' })
    expect(sum.percent).toBeCloseTo(1 / 3)
    expect(sum.cohenPairs).toEqual([expect.objectContaining({ a: 'ana', b: 'ben', n: 3 })])
    expect(sum.byVariant.answer).toMatchObject({ n: 1, percent: 1 })
    expect(sum.byVariant.poor_answer).toMatchObject({ n: 2, percent: 0 })
  })
})
