import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import type { CallName } from '../../src/shared/contract'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace } from './fixture'

const tmp = tmpDirs()

function setup() {
  const s = seedWorkspace(tmp())
  const handlers = buildHandlers(s.ctx)
  const call = async (name: CallName, input: unknown) => {
    const r = await dispatch(handlers, name, input)
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
    return r.value as never
  }
  const refuse = async (name: CallName, input: unknown) => {
    const r = await dispatch(handlers, name, input)
    if (r.ok) throw new Error(`${name} should have been refused`)
    return r.error
  }
  return { ...s, call, refuse }
}

describe('datasets calls', () => {
  it('lists datasets with progress per annotator and the disputed count', async () => {
    const s = setup()
    const t = s.items[0]!.targets.answer!
    await s.call('annotate.save', { targetId: t[0], annotatorId: s.ana.id, verdict: 'true' })
    await s.call('annotate.save', { targetId: t[0], annotatorId: s.ben.id, verdict: 'false' })
    await s.call('annotate.save', { targetId: t[1], annotatorId: s.ana.id, verdict: 'true' })
    const [ds] = (await s.call('datasets.list', {})) as {
      targets: number
      labelledBy: { name: string; labelled: number }[]
      disputed: number
      variants: string[]
    }[]
    expect(ds!.targets).toBe(12)
    expect(ds!.variants).toEqual(['answer', 'poor_answer'])
    expect(ds!.labelledBy.map((l) => [l.name, l.labelled])).toEqual([
      ['ana', 2],
      ['ben', 1],
    ])
    expect(ds!.disputed).toBe(1)
  })

  it('filters items by my progress, disputes, judge disagreement, variant and text', async () => {
    const s = setup()
    const page = async (filter: object) =>
      (await s.call('datasets.items', { datasetId: s.ds.id, annotatorId: s.ana.id, filter })) as {
        total: number
        rows: { extId: string; targets: number; labelledByMe: number; disputed: number }[]
      }
    // ana labels every target of item 0: it drops out of "not yet labelled by me".
    for (const id of [...s.items[0]!.targets.answer!, ...s.items[0]!.targets.poor_answer!])
      await s.call('annotate.save', { targetId: id, annotatorId: s.ana.id, verdict: 'true' })
    expect((await page({ status: 'unlabelled' })).rows.map((r) => r.extId)).toEqual(['q1', 'q2'])
    const all = await page({})
    expect(all.total).toBe(3)
    expect(all.rows[0]).toMatchObject({ extId: 'q0', targets: 4, labelledByMe: 4, disputed: 0 })

    await s.call('annotate.save', {
      targetId: s.items[0]!.targets.answer![0],
      annotatorId: s.ben.id,
      verdict: 'false',
    })
    expect((await page({ status: 'disputed' })).rows.map((r) => [r.extId, r.disputed])).toEqual([['q0', 1]])

    s.addVerdict(s.items[1]!.targets.poor_answer![0]!, 'false')
    await s.call('annotate.save', {
      targetId: s.items[1]!.targets.poor_answer![0],
      annotatorId: s.ben.id,
      verdict: 'true',
    })
    expect((await page({ status: 'judgeDisagreement' })).rows.map((r) => r.extId)).toEqual(['q1'])

    expect((await page({ search: 'volcano' })).rows.map((r) => r.extId)).toEqual(['q2'])
    expect((await page({ search: '100%' })).total).toBe(0)
    const byVariant = await page({ variant: 'answer' })
    expect(byVariant.rows[0]).toMatchObject({ targets: 2, labelledByMe: 2 })
    expect((await page({ variant: 'nope' })).total).toBe(0)
  })

  it('gives names and a brief (schema, variants) without counting progress', async () => {
    const s = setup()
    expect(await s.call('datasets.names', {})).toEqual([{ id: s.ds.id, name: 'wiki' }])
    expect(await s.call('datasets.brief', { datasetId: s.ds.id })).toMatchObject({
      name: 'wiki',
      labelSchema: { name: 'faaf' },
      variants: ['answer', 'poor_answer'],
    })
    expect(await s.refuse('datasets.brief', { datasetId: 99 })).toMatchObject({ code: 'not_found' })
  })

  it('pages through items in order', async () => {
    const s = setup()
    const r = (await s.call('datasets.items', {
      datasetId: s.ds.id,
      annotatorId: null,
      offset: 1,
      limit: 1,
    })) as {
      total: number
      rows: { extId: string }[]
    }
    expect(r.total).toBe(3)
    expect(r.rows.map((x) => x.extId)).toEqual(['q1'])
  })
})

describe('annotate calls', () => {
  it('opens my first unlabelled target and moves on in reading order', async () => {
    const s = setup()
    const first = s.items[0]!.targets.answer![0]!
    const view = (await s.call('annotate.open', { datasetId: s.ds.id, annotatorId: s.ana.id })) as {
      focusTargetId: number
      itemIndex: number
      itemCount: number
      nextItemId: number
      prevItemId: number | null
      targets: { targetId: number; against: string }[]
    }
    expect(view.focusTargetId).toBe(first)
    expect([view.itemIndex, view.itemCount, view.prevItemId, view.nextItemId]).toEqual([
      0,
      3,
      null,
      s.items[1]!.itemId,
    ])
    expect(view.targets).toHaveLength(4)
    expect(view.targets[0]!.against).toBe('candidate')
    await s.call('annotate.save', { targetId: first, annotatorId: s.ana.id, verdict: 'true', seconds: 3 })
    const next = (await s.call('annotate.next', {
      datasetId: s.ds.id,
      annotatorId: s.ana.id,
      afterTargetId: first,
    })) as {
      targetId: number
    }
    expect(next.targetId).toBe(s.items[0]!.targets.answer![1])
  })

  it('keeps judge and other annotators’ verdicts out of the reply in blind mode until I label', async () => {
    const s = setup()
    const target = s.items[0]!.targets.answer![0]!
    s.addVerdict(target, 'false')
    await s.call('annotate.save', { targetId: target, annotatorId: s.ben.id, verdict: 'false' })
    type V = {
      hiddenJudgeVerdicts: number
      targets: { targetId: number; judges: unknown[] | null; others: unknown[] | null }[]
    }
    const open = async (blind: boolean) =>
      (await s.call('annotate.open', {
        datasetId: s.ds.id,
        annotatorId: s.ana.id,
        targetId: target,
        blind,
      })) as V
    const hidden = await open(true)
    expect(hidden.targets.find((t) => t.targetId === target)).toMatchObject({ judges: null, others: null })
    expect(hidden.hiddenJudgeVerdicts).toBe(1)
    expect((await open(false)).targets.find((t) => t.targetId === target)!.judges).toEqual([
      {
        runId: 1,
        judge: 'faaf-tf · gpt-test',
        status: 'ok',
        verdict: 'false',
        reason: 'because',
        citation: 'cited text',
      },
    ])
    await s.call('annotate.save', { targetId: target, annotatorId: s.ana.id, verdict: 'true' })
    const after = await open(true)
    expect(after.targets.find((t) => t.targetId === target)!.others).toEqual([
      { annotator: 'ben', verdict: 'false' },
    ])
    expect(after.hiddenJudgeVerdicts).toBe(0)
  })

  it('saves evidence and notes, keeps them across a verdict change, and clears on undo', async () => {
    const s = setup()
    const target = s.items[0]!.targets.answer![0]!
    const evidence = [{ pane: 'candidate', start: 0, end: 6 }]
    await s.call('annotate.save', {
      targetId: target,
      annotatorId: s.ana.id,
      verdict: 'true',
      evidence,
      note: 'n',
    })
    await s.call('annotate.save', { targetId: target, annotatorId: s.ana.id, verdict: 'false' })
    const view = (await s.call('annotate.open', {
      datasetId: s.ds.id,
      annotatorId: s.ana.id,
      targetId: target,
    })) as {
      targets: { targetId: number; mine: unknown }[]
    }
    expect(view.targets.find((t) => t.targetId === target)!.mine).toMatchObject({
      verdict: 'false',
      evidence,
      note: 'n',
    })
    await s.call('annotate.save', { targetId: target, annotatorId: s.ana.id, verdict: null })
    const stats = (await s.call('datasets.get', { datasetId: s.ds.id })) as { labelledBy: unknown[] }
    expect(stats.labelledBy).toEqual([])
  })

  it('refuses a verdict outside the schema, an unknown annotator and an empty evidence span', async () => {
    const s = setup()
    const target = s.items[0]!.targets.answer![0]!
    expect(
      await s.refuse('annotate.save', { targetId: target, annotatorId: s.ana.id, verdict: 'maybe' }),
    ).toMatchObject({
      code: 'bad_input',
      message: expect.stringMatching(/not one of/),
    })
    expect(
      await s.refuse('annotate.save', { targetId: target, annotatorId: 999, verdict: 'true' }),
    ).toMatchObject({
      code: 'not_found',
    })
    const bad = await s.refuse('annotate.save', {
      targetId: target,
      annotatorId: s.ana.id,
      verdict: 'true',
      evidence: [{ pane: 'candidate', start: 4, end: 4 }],
    })
    expect(bad.code).toBe('bad_input')
    expect(await s.refuse('annotate.open', { datasetId: 42, annotatorId: s.ana.id })).toMatchObject({
      code: 'not_found',
    })
  })

  it('creates annotators by name once', async () => {
    const s = setup()
    const a = (await s.call('workspace.ensureAnnotator', { name: '  cleo ' })) as { id: number; name: string }
    const b = (await s.call('workspace.ensureAnnotator', { name: 'cleo' })) as { id: number }
    expect(a.name).toBe('cleo')
    expect(b.id).toBe(a.id)
    expect(((await s.call('workspace.annotators', {})) as { name: string }[]).map((x) => x.name)).toEqual([
      'ana',
      'ben',
      'cleo',
    ])
  })
})
