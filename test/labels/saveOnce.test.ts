import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { editUnit } from '../../src/main/units/edit'
import { seedWorkspace } from '../annotate/fixture'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function setup() {
  const dir = tmp()
  const s = seedWorkspace(dir)
  const handlers = buildHandlers(s.ctx)
  return {
    ...s,
    file: join(dir, 'w.factlab'),
    save: (input: object) => dispatch(handlers, 'annotate.save', input),
  }
}

/** What the workspace keeps of one person's label on a target: its history and its current row. */
function stored(ctx: AppContext, targetId: number) {
  const db = ctx.workspace.db
  return {
    history: db
      .prepare('SELECT verdict, seconds FROM label_history WHERE target_id = ? ORDER BY id')
      .all(targetId),
    current: db.prepare('SELECT verdict, seconds FROM labels WHERE target_id = ?').all(targetId),
  }
}

describe('a label sent again after its first save landed', () => {
  it('is stored once and answered as the first time', async () => {
    const s = setup()
    const t = s.items[0]!.targets.answer![0]!
    const input = {
      targetId: t,
      annotatorId: s.ana.id,
      verdict: 'true',
      seconds: 12,
      saveId: 'tab1-label-0001',
    }
    const first = await s.save(input)
    const again = await s.save(input)
    expect(first.ok).toBe(true)
    expect(again).toEqual(first)
    // One history row, and the time spent counted once.
    expect(stored(s.ctx, t)).toEqual({
      history: [{ verdict: 'true', seconds: 12 }],
      current: [{ verdict: 'true', seconds: 12 }],
    })
    s.ctx.close()
  })

  it('with another save id is a new save, as before', async () => {
    const s = setup()
    const t = s.items[0]!.targets.answer![1]!
    const base = { targetId: t, annotatorId: s.ana.id, seconds: 5 }
    expect((await s.save({ ...base, verdict: 'true', saveId: 'tab1-label-0001' })).ok).toBe(true)
    expect((await s.save({ ...base, verdict: 'true', saveId: 'tab1-label-0002' })).ok).toBe(true)
    // Without an id (an older client, a script) every send is a save.
    expect((await s.save({ ...base, verdict: 'false' })).ok).toBe(true)
    // History rows carry the running total of time spent.
    expect(stored(s.ctx, t).history).toEqual([
      { verdict: 'true', seconds: 5 },
      { verdict: 'true', seconds: 10 },
      { verdict: 'false', seconds: 15 },
    ])
    expect(stored(s.ctx, t).current).toEqual([{ verdict: 'false', seconds: 15 }])
    s.ctx.close()
  })

  it('is stored once when the server restarted in between', async () => {
    const s = setup()
    const t = s.items[1]!.targets.answer![0]!
    const input = { targetId: t, annotatorId: s.ana.id, verdict: 'false', saveId: 'tab1-label-0003' }
    const first = await s.save(input)
    s.ctx.close()
    const restarted = new AppContext(s.file, { driver: 'browser' })
    try {
      const again = await dispatch(buildHandlers(restarted), 'annotate.save', input)
      expect(again).toEqual(first)
      expect(stored(restarted, t).history).toEqual([{ verdict: 'false', seconds: 0 }])
    } finally {
      restarted.close()
    }
  })

  it('gets its first answer even where a new label would now be refused', async () => {
    const s = setup()
    const t = s.items[1]!.targets.answer![1]!
    const input = { targetId: t, annotatorId: s.ana.id, verdict: 'true', saveId: 'tab1-label-0004' }
    const first = await s.save(input)
    // Reworded after the label landed (the label makes it a new version): the resend must not be
    // refused, or the screen would take back a label that is stored.
    const unit = (s.ws.db.prepare('SELECT unit_id AS u FROM targets WHERE id = ?').get(t) as { u: number }).u
    editUnit(s.ws.db, unit, 'Fact 1.2, reworded.')
    expect(await s.save(input)).toEqual(first)
    s.ctx.close()
  })

  it('refuses a save id already used for another label, and changes nothing', async () => {
    const s = setup()
    const t = s.items[2]!.targets.answer![0]!
    await s.save({ targetId: t, annotatorId: s.ana.id, verdict: 'true', saveId: 'tab1-label-0005' })
    const r = await s.save({
      targetId: t,
      annotatorId: s.ana.id,
      verdict: 'false',
      saveId: 'tab1-label-0005',
    })
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'bad_input',
        message:
          'The save id tab1-label-0005 was already used for another label; nothing was saved. Send each new label with a new save id.',
      },
    })
    expect(stored(s.ctx, t).history).toEqual([{ verdict: 'true', seconds: 0 }])
    const bad = await s.save({ targetId: t, annotatorId: s.ana.id, verdict: 'false', saveId: 'no spaces!' })
    expect(bad.ok).toBe(false)
    s.ctx.close()
  })

  it('from the CLI with the same --save-id is stored once', async () => {
    const s = setup()
    s.ctx.close()
    const args = ['label', '--workspace', s.file, '--dataset', 'wiki', '--item', 'q0', '--variant', 'answer']
    const label = [
      ...args,
      '--unit',
      '1',
      '--annotator',
      'ana',
      '--verdict',
      'true',
      '--save-id',
      'script-run-0001',
    ]
    const first = await cli(label)
    expect(first.code, first.err).toBe(0)
    const again = await cli(label)
    expect(again.code, again.err).toBe(0)
    expect(again.out).toBe(first.out)
    const ctx = new AppContext(s.file, { driver: 'cli' })
    try {
      expect(stored(ctx, s.items[0]!.targets.answer![0]!).history).toEqual([{ verdict: 'true', seconds: 0 }])
    } finally {
      ctx.close()
    }
  })
})

describe('save ids past the resend window', () => {
  /** Every label and history row of the workspace, as a person's work would be compared. */
  const allWork = (ctx: AppContext) => ({
    labels: ctx.workspace.db.prepare('SELECT * FROM labels ORDER BY id').all(),
    history: ctx.workspace.db.prepare('SELECT * FROM label_history ORDER BY id').all(),
  })
  const saveIds = (ctx: AppContext) =>
    ctx.workspace.db.prepare('SELECT save_id FROM label_saves ORDER BY save_id').pluck().all()

  it('are forgotten when the workspace opens; a resend within the window is still answered once, and no label is touched', async () => {
    const s = setup()
    const [t1, t2] = s.items[0]!.targets.answer!
    const recent = {
      targetId: t1!,
      annotatorId: s.ana.id,
      verdict: 'true',
      seconds: 7,
      saveId: 'tab1-recent',
    }
    const old = { targetId: t2!, annotatorId: s.ana.id, verdict: 'false', saveId: 'tab1-old' }
    const first = await s.save(recent)
    expect((await s.save(old)).ok).toBe(true)
    // One save landed 29 days ago, the other 31: only the first is inside the 30-day window.
    const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString()
    const setAt = s.ws.db.prepare('UPDATE label_saves SET at = ? WHERE save_id = ?')
    setAt.run(daysAgo(29), 'tab1-recent')
    setAt.run(daysAgo(31), 'tab1-old')
    const work = allWork(s.ctx)
    s.ctx.close()

    const reopened = new AppContext(s.file, { driver: 'browser' })
    try {
      expect(saveIds(reopened)).toEqual(['tab1-recent'])
      expect(allWork(reopened)).toEqual(work)
      // The resend inside the window gets the first answer and writes nothing.
      const again = await dispatch(buildHandlers(reopened), 'annotate.save', recent)
      expect(again).toEqual(first)
      expect(allWork(reopened)).toEqual(work)
    } finally {
      reopened.close()
    }
  })
})
