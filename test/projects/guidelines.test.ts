import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedWorkspace } from '../annotate/fixture'
import { rpcOn } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

function app() {
  const s = seedWorkspace(tmp())
  return { ...s, rpc: rpcOn(s.ctx) }
}

describe('guidelines', () => {
  it('keeps every edit as a new version and stamps each label with the version it was given under', async () => {
    const { rpc, ds, ana, items, ctx } = app()
    const v1 = await rpc.value<{ version: number }>('projects.saveGuidelines', {
      datasetId: ds.id,
      body: '# Rules\n\nBe strict.',
    })
    expect(v1.version).toBe(1)
    const t = items[0]!.targets.answer!
    await rpc.value('annotate.save', { targetId: t[0], annotatorId: ana.id, verdict: 'true' })
    const v2 = await rpc.value<{ version: number }>('projects.saveGuidelines', {
      datasetId: ds.id,
      body: '# Rules\n\nBe lenient.',
    })
    expect(v2.version).toBe(2)
    await rpc.value('annotate.save', { targetId: t[1], annotatorId: ana.id, verdict: 'false' })
    // Saving the same text again adds no version.
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: '# Rules\n\nBe lenient.' })
    const g = await rpc.value<{ current: { version: number; body: string }; history: { version: number }[] }>(
      'projects.guidelines',
      { datasetId: ds.id },
    )
    expect(g.current.version).toBe(2)
    expect(g.history.map((h) => h.version)).toEqual([1])
    const stamped = ctx.workspace.db
      .prepare(
        'SELECT target_id AS t, guidelines_version AS v FROM labels WHERE annotator_id = ? ORDER BY target_id',
      )
      .all(ana.id)
    expect(stamped).toEqual([
      { t: t[0], v: 1 },
      { t: t[1], v: 2 },
    ])
    expect(
      ctx.workspace.db
        .prepare('SELECT guidelines_version AS v FROM label_history WHERE annotator_id = ? ORDER BY id')
        .all(ana.id),
    ).toEqual([{ v: 1 }, { v: 2 }])
    // History rows take the stamp once and nothing else.
    expect(() => ctx.workspace.db.prepare('UPDATE label_history SET guidelines_version = 9').run()).toThrow(
      /append-only/,
    )
    expect(() => ctx.workspace.db.prepare(`UPDATE label_history SET verdict = 'x'`).run()).toThrow(
      /append-only/,
    )
  })

  it('refuses guidelines with a script tag with a clear message, and keeps the current version', async () => {
    const { rpc, ds } = app()
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'Plain rules.' })
    const r = await rpc.call('projects.saveGuidelines', {
      datasetId: ds.id,
      body: 'Rules <script>alert(1)</script>',
    })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/<script> tag.*nothing was changed/)
    // A script quoted as code is text to read, not a tag.
    await rpc.value('projects.saveGuidelines', {
      datasetId: ds.id,
      body: 'Never paste `<script>` into answers.',
    })
    const g = await rpc.value<{ current: { version: number }; history: unknown[] }>('projects.guidelines', {
      datasetId: ds.id,
    })
    expect(g.current.version).toBe(2)
    expect(g.history).toHaveLength(1)
  })

  it('asks an annotator to read the guidelines in full before their first label only', async () => {
    const { rpc, ds, ana, ben, items } = app()
    const none = await rpc.value<{ mustRead: boolean }>('projects.guidelines', {
      datasetId: ds.id,
      annotatorId: ana.id,
    })
    expect(none.mustRead).toBe(false)
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'Rules.' })
    const must = await rpc.value<{ mustRead: boolean }>('projects.guidelines', {
      datasetId: ds.id,
      annotatorId: ana.id,
    })
    expect(must.mustRead).toBe(true)
    await rpc.value('projects.readGuidelines', { datasetId: ds.id, annotatorId: ana.id, version: 1 })
    expect(
      (
        await rpc.value<{ mustRead: boolean }>('projects.guidelines', {
          datasetId: ds.id,
          annotatorId: ana.id,
        })
      ).mustRead,
    ).toBe(false)
    // ben labelled before the guidelines existed: not asked again.
    await rpc.value('annotate.save', {
      targetId: items[0]!.targets.answer![0],
      annotatorId: ben.id,
      verdict: 'true',
    })
    expect(
      (
        await rpc.value<{ mustRead: boolean }>('projects.guidelines', {
          datasetId: ds.id,
          annotatorId: ben.id,
        })
      ).mustRead,
    ).toBe(false)
  })

  it('records the version the annotator had on screen, and a newer version is shown before their next label', async () => {
    const { rpc, ds, ana, items, ctx } = app()
    const heard: unknown[] = []
    ctx.events.subscribe((name, payload) => name === 'guidelines.changed' && heard.push(payload))
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'Be strict.' })
    await rpc.value('projects.readGuidelines', { datasetId: ds.id, annotatorId: ana.id, version: 1 })
    const shown = await rpc.value<{ mustRead: boolean; readVersion: number | null }>('projects.guidelines', {
      datasetId: ds.id,
      annotatorId: ana.id,
    })
    expect(shown).toMatchObject({ mustRead: false, readVersion: 1 })
    // The lead publishes version 2 while ana still has version 1 on screen.
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: 'Be lenient.' })
    expect(heard).toEqual([
      { datasetId: ds.id, version: 1 },
      { datasetId: ds.id, version: 2 },
    ])
    const [t0, t1] = items[0]!.targets.answer!
    const t2 = items[1]!.targets.answer![0]
    await rpc.value('annotate.save', {
      targetId: t0,
      annotatorId: ana.id,
      verdict: 'true',
      guidelinesVersion: 1,
    })
    // The open view is told, fetches again and must show version 2 before the next label.
    const now = await rpc.value<{
      mustRead: boolean
      readVersion: number | null
      current: { version: number }
    }>('projects.guidelines', { datasetId: ds.id, annotatorId: ana.id })
    expect(now).toMatchObject({ mustRead: true, readVersion: 1, current: { version: 2 } })
    await rpc.value('projects.readGuidelines', { datasetId: ds.id, annotatorId: ana.id, version: 2 })
    await rpc.value('annotate.save', {
      targetId: t1,
      annotatorId: ana.id,
      verdict: 'false',
      guidelinesVersion: 2,
    })
    // A version the dataset never had is refused, and nothing is saved.
    const bad = await rpc.call('annotate.save', {
      targetId: t2,
      annotatorId: ana.id,
      verdict: 'true',
      guidelinesVersion: 7,
    })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error.message).toMatch(/no guidelines version 7; the label was not saved/)
    const versions = ctx.workspace.db
      .prepare(
        'SELECT target_id AS t, guidelines_version AS v FROM labels WHERE annotator_id = ? ORDER BY target_id',
      )
      .all(ana.id)
    expect(versions).toEqual([
      { t: t0, v: 1 },
      { t: t1, v: 2 },
    ])
    // Relabelling under version 1 on screen (a view that has not caught up) keeps version 1.
    await rpc.value('annotate.save', {
      targetId: t1,
      annotatorId: ana.id,
      verdict: 'true',
      guidelinesVersion: 1,
    })
    expect(
      ctx.workspace.db
        .prepare('SELECT guidelines_version AS v FROM labels WHERE target_id = ? AND annotator_id = ?')
        .get(t1, ana.id),
    ).toEqual({ v: 1 })
    // The history keeps the version each state was given under too, not the latest at the time.
    expect(
      ctx.workspace.db
        .prepare(
          'SELECT target_id AS t, guidelines_version AS v FROM label_history WHERE annotator_id = ? ORDER BY id',
        )
        .all(ana.id),
    ).toEqual([
      { t: t0, v: 1 },
      { t: t1, v: 2 },
      { t: t1, v: 1 },
    ])
  })

  it('takes a Markdown file from the CLI, refusing one with a script tag and keeping what was there', async () => {
    const dir = tmp()
    const { ctx } = seedWorkspace(dir)
    const file = ctx.workspace.file
    ctx.close()
    const good = join(dir, 'rules.md')
    const bad = join(dir, 'evil.md')
    writeFileSync(good, '# Rules\n\nJudge the answer, not the question.')
    writeFileSync(bad, '# Rules\n\n<script>fetch("https://example.com")</script>')
    const ok = await cli(['guidelines', '--workspace', file, '--dataset', 'wiki', '--file', good])
    expect(ok.code, ok.err).toBe(0)
    expect(ok.out).toMatch(/^Guidelines version 1( by .+)? \(the first\)\n/)
    const refused = await cli(['guidelines', '--workspace', file, '--dataset', 'wiki', '--file', bad])
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/a <script> tag.*nothing was changed/)
    const now = await cli(['guidelines', '--workspace', file, '--dataset', 'wiki', '--json'])
    expect(JSON.parse(now.out)).toMatchObject({ current: { version: 1 }, history: [] })
  })

  it('records who wrote each version: --as on the command line, the person labelling in the app', async () => {
    const dir = tmp()
    const { ctx, ds } = seedWorkspace(dir)
    const rpc = rpcOn(ctx)
    // The Project view sends the name shown under "Labelling as".
    await rpc.value('projects.saveGuidelines', { datasetId: ds.id, body: '# One', author: 'lead' })
    const file = ctx.workspace.file
    ctx.close()
    const md = join(dir, 'two.md')
    writeFileSync(md, '# Two\n\nStricter.')
    const saved = await cli([
      'guidelines',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--file',
      md,
      '--as',
      'dora',
    ])
    expect(saved.code, saved.err).toBe(0)
    expect(saved.out).toMatch(/^Guidelines version 2 by dora \(1 earlier version kept\)\n/)
    const shown = JSON.parse(
      (await cli(['guidelines', '--workspace', file, '--dataset', 'wiki', '--json'])).out,
    )
    expect(shown.current).toMatchObject({ version: 2, author: 'dora' })
    expect(shown.history[0]).toMatchObject({ version: 1, author: 'lead' })
    // Without --as the version still has an author: the login name of whoever ran the command.
    writeFileSync(md, '# Three')
    await cli(['guidelines', '--workspace', file, '--dataset', 'wiki', '--file', md])
    const third = JSON.parse(
      (await cli(['guidelines', '--workspace', file, '--dataset', 'wiki', '--json'])).out,
    )
    expect(third.current.author).toEqual(expect.any(String))
  })
})
