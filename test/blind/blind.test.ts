import { describe, expect, it } from 'vitest'
import { adjudicationRefusal, reveals } from '../../src/main/blind/rule'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import type { CallName } from '../../src/shared/contract'
import { seedWorkspace } from '../annotate/fixture'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/**
 * ana and ben disagree on the first fact of item 0's answer, a judge said `false` on it, and
 * cat — who has labelled nothing yet — looks at everything with blind mode on.
 */
async function setup() {
  const s = seedWorkspace(tmp())
  const cat = ensureAnnotator(s.ws.db, 'cat')
  const handlers = buildHandlers(s.ctx)
  const call = async <T>(name: CallName, input: unknown): Promise<T> => {
    const r = await dispatch(handlers, name, input)
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
    return r.value as T
  }
  const refuse = async (name: CallName, input: unknown) => {
    const r = await dispatch(handlers, name, input)
    if (r.ok) throw new Error(`${name} should have been refused`)
    return r.error
  }
  const target = s.items[0]!.targets.answer![0]!
  s.addVerdict(target, 'false')
  await call('annotate.save', { targetId: target, annotatorId: s.ana.id, verdict: 'true' })
  await call('annotate.save', { targetId: target, annotatorId: s.ben.id, verdict: 'false' })
  // A gold row makes it a judge disagreement as well (gold true, judge false).
  const viewer = { annotatorId: cat.id, blind: true }
  return { ...s, cat, call, refuse, target, viewer }
}

type Open = { targets: { targetId: number; others: unknown; judges: unknown; disputed: boolean }[] }
type Queue = { entries: { targetId: number; labels: unknown[] }[]; hidden: number; total: number }

describe('blind mode, enforced in main', () => {
  it('the rule: blind reveals a target only to someone with a current verdict on it, or who stepped out', () => {
    const v = { annotatorId: 1, blind: true }
    expect(reveals(v, { labelled: new Set([5]), steppedOut: false }, 5)).toBe(true)
    expect(reveals(v, { labelled: new Set([5]), steppedOut: false }, 6)).toBe(false)
    expect(reveals(v, { labelled: new Set(), steppedOut: true }, 6)).toBe(true)
    expect(reveals({ annotatorId: 1, blind: false }, { labelled: new Set(), steppedOut: false }, 6)).toBe(
      true,
    )
    expect(reveals(undefined, { labelled: new Set(), steppedOut: false }, 6)).toBe(true)
    expect(adjudicationRefusal({ labelledByAdjudicator: true, allowSelfAdjudication: false })).toMatch(
      /labelled this target yourself/,
    )
    expect(adjudicationRefusal({ labelledByAdjudicator: true, allowSelfAdjudication: true })).toBeNull()
  })

  it('annotate.open hides others, judges and the disputed flag until I label, and again after undo and clear', async () => {
    const s = await setup()
    const open = async () =>
      (
        await s.call<Open>('annotate.open', {
          datasetId: s.ds.id,
          annotatorId: s.cat.id,
          targetId: s.target,
          blind: true,
        })
      ).targets.find((t) => t.targetId === s.target)!
    expect(await open()).toMatchObject({ others: null, judges: null, disputed: false })
    await s.call('annotate.save', { targetId: s.target, annotatorId: s.cat.id, verdict: 'true' })
    const seen = await open()
    expect(seen.others).toEqual([
      { annotator: 'ana', verdict: 'true' },
      { annotator: 'ben', verdict: 'false' },
    ])
    expect(seen.disputed).toBe(true)
    // Undo and clear both send a null verdict: the target is unlabelled again, so hidden again.
    await s.call('annotate.save', { targetId: s.target, annotatorId: s.cat.id, verdict: null })
    expect(await open()).toMatchObject({ others: null, judges: null, disputed: false })
  })

  it('the adjudication queue shows a blind annotator only the disputes they labelled', async () => {
    const s = await setup()
    const queue = (viewer?: object) =>
      s.call<Queue>('agreement.queue', { datasetId: s.ds.id, status: 'all', viewer })
    const blind = await queue(s.viewer)
    expect(blind.entries).toEqual([])
    expect(blind.hidden).toBe(1)
    expect((await queue()).entries.map((e) => e.targetId)).toEqual([s.target])
    await s.call('annotate.save', { targetId: s.target, annotatorId: s.cat.id, verdict: 'true' })
    expect((await queue(s.viewer)).entries.map((e) => e.targetId)).toEqual([s.target])
  })

  it('an adjudicator cannot decide a target they labelled unless the dataset allows it, and then it is recorded', async () => {
    const s = await setup()
    const err = await s.refuse('agreement.adjudicate', {
      targetId: s.target,
      verdict: 'true',
      adjudicatorId: s.ana.id,
    })
    expect(err.code).toBe('conflict')
    expect(err.message).toMatch(/labelled this target yourself/)
    expect(s.ws.db.prepare('SELECT COUNT(*) AS n FROM gold').get()).toEqual({ n: 0 })
    // A label cleared before adjudicating still counts as having labelled it.
    await s.call('annotate.save', { targetId: s.target, annotatorId: s.ana.id, verdict: null })
    expect(
      (
        await s.refuse('agreement.adjudicate', {
          targetId: s.target,
          verdict: 'true',
          adjudicatorId: s.ana.id,
        })
      ).code,
    ).toBe('conflict')

    await s.call('agreement.setSelfAdjudication', { datasetId: s.ds.id, allow: true })
    const r = await s.call<{ gold: { adjudicatorLabelled: boolean; adjudicator: string } }>(
      'agreement.adjudicate',
      { targetId: s.target, verdict: 'true', adjudicatorId: s.ana.id },
    )
    expect(r.gold).toMatchObject({ adjudicator: 'ana', adjudicatorLabelled: true })
    expect(
      s.ws.db
        .prepare('SELECT adjudicator_labelled AS self FROM gold_history WHERE target_id = ?')
        .all(s.target),
    ).toEqual([{ self: 1 }])
    // A third party's decision says so too.
    const third = await s.call<{ gold: { adjudicatorLabelled: boolean } }>('agreement.adjudicate', {
      targetId: s.target,
      verdict: 'false',
      adjudicatorId: s.cat.id,
    })
    expect(third.gold.adjudicatorLabelled).toBe(false)
  })

  it('stepping out as adjudicator reveals every dispute and refuses that person’s labels from then on', async () => {
    const s = await setup()
    await s.call('agreement.stepOut', { datasetId: s.ds.id, annotatorId: s.cat.id })
    const q = await s.call<Queue & { steppedOut: boolean }>('agreement.queue', {
      datasetId: s.ds.id,
      viewer: s.viewer,
    })
    expect(q.steppedOut).toBe(true)
    expect(q.entries.map((e) => e.targetId)).toEqual([s.target])
    const err = await s.refuse('annotate.save', {
      targetId: s.target,
      annotatorId: s.cat.id,
      verdict: 'true',
    })
    expect(err.message).toMatch(/stepped out of labelling/)
    await s.call('agreement.adjudicate', { targetId: s.target, verdict: 'true', adjudicatorId: s.cat.id })
  })

  it('items, unit history, judge verdicts, disagreements and the label-next list keep the same secret', async () => {
    const s = await setup()
    // Gold on the target makes the judge's `false` a disagreement with the humans.
    await s.call('agreement.adjudicate', { targetId: s.target, verdict: 'true', adjudicatorId: s.cat.id })
    const ana2 = s.items[0]!.targets.answer![1]!
    await s.call('annotate.save', { targetId: ana2, annotatorId: s.ana.id, verdict: 'true' })
    await s.call('annotate.save', { targetId: ana2, annotatorId: s.ben.id, verdict: 'false' })

    const items = async (viewer?: object, status = 'all') =>
      s.call<{ total: number; rows: { extId: string; disputed: number }[] }>('datasets.items', {
        datasetId: s.ds.id,
        annotatorId: s.cat.id,
        filter: { status },
        viewer,
      })
    expect((await items()).rows[0]!.disputed).toBe(1)
    expect((await items(s.viewer)).rows[0]!.disputed).toBe(0)
    expect((await items(s.viewer, 'disputed')).total).toBe(0)
    expect((await items(s.viewer, 'judgeDisagreement')).total).toBe(0)
    expect((await items(undefined, 'judgeDisagreement')).total).toBe(1)

    const candidateId = (
      s.ws.db.prepare('SELECT candidate_id AS c FROM targets WHERE id = ?').get(s.target) as { c: number }
    ).c
    expect(await s.call<unknown[]>('judges.candidateVerdicts', { candidateId, viewer: s.viewer })).toEqual([])
    expect(await s.call<unknown[]>('judges.candidateVerdicts', { candidateId })).toHaveLength(1)

    const dis = (viewer?: object) =>
      s.call<{ total: number; rows: unknown[] }>('metrics.disagreements', { datasetId: s.ds.id, viewer })
    expect((await dis()).total).toBe(1)
    // Kept back, and said to be: the list is not "no disagreement" but hidden.
    expect(await dis(s.viewer)).toEqual({ total: 0, rows: [], hidden: 1 })
    expect(
      (await s.call<{ queue: unknown[] }>('metrics.labelNext', { datasetId: s.ds.id, viewer: s.viewer }))
        .queue,
    ).toEqual([])

    const lineageId = (
      s.ws.db
        .prepare('SELECT lineage_id AS l FROM units WHERE id = (SELECT unit_id FROM targets WHERE id = ?)')
        .get(s.target) as { l: number }
    ).l
    const versions = (viewer?: object) =>
      s.call<{ labels: { annotator: string }[]; hiddenLabels: number }[]>('units.versions', {
        lineageId,
        viewer,
      })
    expect((await versions())[0]!.labels.map((l) => l.annotator).sort()).toEqual(['ana', 'ben'])
    expect((await versions())[0]!.hiddenLabels).toBe(0)
    // The history says what it keeps back, rather than looking like a unit nobody labelled.
    expect((await versions(s.viewer))[0]).toMatchObject({ labels: [], hiddenLabels: 2 })
    await s.call('annotate.save', { targetId: s.target, annotatorId: s.cat.id, verdict: 'true' })
    expect((await versions(s.viewer))[0]!.labels.map((l) => l.annotator).sort()).toEqual([
      'ana',
      'ben',
      'cat',
    ])
    expect((await versions(s.viewer))[0]!.hiddenLabels).toBe(0)
    expect((await dis(s.viewer)).total).toBe(1)
  })
})
