import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { fileLines } from '../../src/main/projects/lines'
import { exportPackage } from '../../src/main/projects/packageExport'
import { setPlan } from '../../src/main/projects/plan'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

/** The verdict a person gives a target: fixed by who they are and what the target says. */
function verdictOf(ws: Workspace, targetId: number, annotator: string): string {
  const r = ws.db
    .prepare(
      `SELECT i.ext_id AS e, c.variant AS v, u.text AS u FROM targets t JOIN items i ON i.id = t.item_id
       JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id WHERE t.id = ?`,
    )
    .get(targetId) as { e: string; v: string; u: string }
  const s = `${r.e}|${r.v}|${r.u}|${annotator}`
  let h = 0
  for (const ch of s) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  return ['true', 'false', 'not_clear'][h % 3]!
}

/** Labels everything the queue gives this annotator. */
function labelAll(ws: Workspace, datasetId: number, name: string): number {
  const me = ensureAnnotator(ws.db, name).id
  let n = 0
  for (;;) {
    const { targetId } = nextTarget(ws.db, { datasetId, annotatorId: me })
    if (targetId === null) return n
    ws.labels.save({ targetId, annotatorId: me, verdict: verdictOf(ws, targetId, name), seconds: 3 })
    n++
  }
}

/** Every label as content: (item, variant, unit, annotator) → verdict. */
function labelsByContent(ws: Workspace): string[] {
  return (
    ws.db
      .prepare(
        `SELECT i.ext_id || '|' || c.variant || '|' || u.text || '|' || a.name || '=' || l.verdict AS k
         FROM labels l JOIN targets t ON t.id = l.target_id JOIN items i ON i.id = t.item_id
         JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
         JOIN annotators a ON a.id = l.annotator_id ORDER BY k`,
      )
      .all() as { k: string }[]
  ).map((r) => r.k)
}

describe('work packages', () => {
  it('package → offline labels → bundle → merge gives the labels of labelling in one workspace', async () => {
    const dirs = { lead: tmp(), one: tmp(), ana: tmp(), ben: tmp() }
    const shape = { items: 5, variants: 2, facts: 2, annotators: 2 }
    const lead = seedProject(dirs.lead, shape)
    const one = seedProject(dirs.one, shape)
    const names = lead.people.map((p) => p.name)
    const file = lead.ws.file
    lead.ws.close()
    // The lead plans and hands out packages from the CLI.
    const assign = await cli([
      'assign',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--k',
      '2',
      '--policy',
      'fixed',
      '--seed',
      '3',
      '--annotators',
      names.join(','),
    ])
    expect(assign.code, assign.err).toBe(0)
    for (const name of names) {
      const r = await cli([
        'package',
        '--workspace',
        file,
        '--dataset',
        'wiki',
        '--annotator',
        name,
        '--out',
        join(dirs.lead, `${name}.pkg.jsonl`),
      ])
      expect(r.code, r.err).toBe(0)
    }
    // Each laptop opens its package in a fresh workspace, labels, and sends a bundle back.
    const bundles: string[] = []
    for (const name of names) {
      const laptop = join(name === names[0] ? dirs.ana : dirs.ben, 'laptop.factlab')
      const opened = await cli([
        'package',
        '--workspace',
        laptop,
        '--open',
        join(dirs.lead, `${name}.pkg.jsonl`),
      ])
      expect(opened.code, opened.err).toBe(0)
      // Opening it twice changes nothing.
      const again = await cli([
        'package',
        '--workspace',
        laptop,
        '--open',
        join(dirs.lead, `${name}.pkg.jsonl`),
      ])
      expect(again.out).toMatch(/already open here.*nothing changed/)
      const ws = Workspace.open(laptop)
      const ds = ws.db.prepare('SELECT id FROM datasets').get() as { id: number }
      expect(labelAll(ws, ds.id, name)).toBeGreaterThan(0)
      const me = ensureAnnotator(ws.db, name).id
      const out = join(dirs.lead, `${name}.bundle.jsonl`)
      await exportBundle(ws, { datasetId: ds.id, annotatorId: me, out })
      bundles.push(out)
      ws.close()
    }
    const leadWs = Workspace.open(file)
    for (const b of bundles) await mergeBundle(leadWs, b)
    // The same plan, labelled by both people in one workspace.
    const oneDs = one.ds.id
    setPlan(one.ws.db, {
      datasetId: oneDs,
      k: 2,
      policy: 'fixed',
      seed: 3,
      annotators: names.map((name) => ({ name })),
    })
    for (const name of names) labelAll(one.ws, oneDs, name)
    expect(labelsByContent(leadWs)).toEqual(labelsByContent(one.ws))
    // The dashboard shows both packages back.
    const d = projectDashboard(leadWs.db, lead.ds.id)
    expect(d.packages.map((p) => p.returnedAt !== null)).toEqual([true, true])
    expect(d.complete).toBe(d.targets)
    leadWs.close()
    one.ws.close()
  })

  it("refuses a bundle from another annotator's package, and a package into a workspace with another dataset of that name", async () => {
    const dirs = { lead: tmp(), laptop: tmp(), other: tmp() }
    const lead = seedProject(dirs.lead, { items: 2, variants: 1, facts: 1, annotators: 2 })
    const [ana, ben] = lead.people
    const file = lead.ws.file
    lead.ws.close()
    const pkg = join(dirs.lead, 'ana.pkg.jsonl')
    expect(
      (
        await cli([
          'package',
          '--workspace',
          file,
          '--dataset',
          'wiki',
          '--annotator',
          ana!.name,
          '--out',
          pkg,
        ])
      ).code,
    ).toBe(0)
    // ben opens ana's package and labels under his own name.
    const laptop = join(dirs.laptop, 'w.factlab')
    expect((await cli(['package', '--workspace', laptop, '--open', pkg])).code).toBe(0)
    const ws = Workspace.open(laptop)
    const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    labelAll(ws, ds, ben!.name)
    const bundle = join(dirs.laptop, 'ben.bundle.jsonl')
    await exportBundle(ws, { datasetId: ds, annotatorId: ensureAnnotator(ws.db, ben!.name).id, out: bundle })
    ws.close()
    const leadWs = Workspace.open(file)
    const before = labelsByContent(leadWs)
    await expect(mergeBundle(leadWs, bundle)).rejects.toThrow(
      /carries ann1's labels, but it comes from the package made for ann0/,
    )
    expect(labelsByContent(leadWs)).toEqual(before)
    leadWs.close()

    // A workspace that holds a different "wiki" refuses the package, unchanged.
    const other = Workspace.open(join(dirs.other, 'w.factlab'))
    const theirs = createDataset(other.db, { name: 'wiki', labelSchema: FAAF_SCHEMA })
    other.content.insertItem(theirs.id, { extId: 'x', reference: 'Something else.' }, 0)
    other.close()
    const r = await cli(['package', '--workspace', join(dirs.other, 'w.factlab'), '--open', pkg])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/already holds a different dataset named "wiki".*Nothing was changed/)
    const after = Workspace.open(join(dirs.other, 'w.factlab'))
    expect(after.db.prepare('SELECT COUNT(*) AS n FROM items').get()).toEqual({ n: 1 })
    expect(after.db.prepare('SELECT COUNT(*) AS n FROM package_opened').get()).toEqual({ n: 0 })
    after.close()
  })

  it('opens nothing from a truncated package, and reads lines across chunk edges', async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 3, variants: 2, facts: 2, annotators: 1 })
    const file = lead.ws.file
    lead.ws.close()
    const pkg = join(dirs.lead, 'p.jsonl')
    expect(
      (await cli(['package', '--workspace', file, '--dataset', 'wiki', '--annotator', 'ann0', '--out', pkg]))
        .code,
    ).toBe(0)
    const whole = readFileSync(pkg, 'utf8')
    const lines = whole.trim().split('\n')
    // Read in 7-byte chunks (with a multi-byte character thrown in), every line comes back whole.
    const odd = join(dirs.lead, 'odd.txt')
    writeFileSync(odd, 'één\n\nzwei\r\ndrei — vier\n')
    expect([...fileLines(odd, 7)].map((l) => l.line)).toEqual(['één', 'zwei', 'drei — vier'])
    writeFileSync(pkg, `${lines.slice(0, -1).join('\n')}\n`)
    const laptop = join(dirs.laptop, 'w.factlab')
    const r = await cli(['package', '--workspace', laptop, '--open', pkg])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/announces 3 items but holds 2.*Nothing was opened/)
    const ws = Workspace.open(laptop)
    expect(ws.db.prepare('SELECT COUNT(*) AS n FROM datasets').get()).toEqual({ n: 0 })
    ws.close()
  })

  it('carries controls without their answers: the laptop mixes them in, the lead scores them on return', async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 3, variants: 1, facts: 2, annotators: 1 })
    const control = lead.targets[lead.targets.length - 1]!
    setPlan(lead.ws.db, { datasetId: lead.ds.id, k: 1, controlRate: 1 })
    setControls(
      lead.ws.db,
      lead.ds.id,
      { fromGold: [], answers: [{ targetId: control, verdict: 'true' }] },
      'now',
    )
    const file = lead.ws.file
    lead.ws.close()
    const pkg = join(dirs.lead, 'p.jsonl')
    expect(
      (await cli(['package', '--workspace', file, '--dataset', 'wiki', '--annotator', 'ann0', '--out', pkg]))
        .code,
    ).toBe(0)
    expect(readFileSync(pkg, 'utf8')).not.toMatch(/"verdict"/)
    const laptop = join(dirs.laptop, 'w.factlab')
    expect((await cli(['package', '--workspace', laptop, '--open', pkg])).code).toBe(0)
    const ws = Workspace.open(laptop)
    const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const me = ensureAnnotator(ws.db, 'ann0').id
    const first = nextTarget(ws.db, { datasetId: ds, annotatorId: me }).targetId!
    const text = (id: number, db: Workspace['db']) =>
      (
        db
          .prepare('SELECT u.text FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.id = ?')
          .get(id) as { text: string }
      ).text
    ws.labels.save({ targetId: first, annotatorId: me, verdict: 'false' })
    // Nothing on the laptop tells how that went.
    expect(projectDashboard(ws.db, ds).annotators.find((a) => a.name === 'ann0')?.controls.answered).toBe(0)
    const bundle = join(dirs.laptop, 'b.jsonl')
    await exportBundle(ws, { datasetId: ds, annotatorId: me, out: bundle })
    const controlText = text(first, ws.db)
    ws.close()
    const back = Workspace.open(file)
    expect(text(control, back.db)).toBe(controlText)
    await mergeBundle(back, bundle)
    const mine = projectDashboard(back.db, lead.ds.id).annotators.find((a) => a.name === 'ann0')!
    expect(mine.controls).toMatchObject({ answered: 1, correct: 0, accuracy: 0 })
    back.close()
  })

  it('a control on one of two identically worded units in an answer stays one control on the laptop, on that unit', async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 1, variants: 1, facts: 1, annotators: 1 })
    const item = (lead.ws.db.prepare('SELECT id FROM items').get() as { id: number }).id
    const candidate = (lead.ws.db.prepare('SELECT id FROM candidates').get() as { id: number }).id
    // The same wording twice in one answer (an import can give that): two units, two targets.
    const twin = lead.ws.content.insertUnit(item, { kind: 'fact', text: 'Fact 0.0' })
    const control = lead.ws.content.targetId(twin, candidate)!
    setPlan(lead.ws.db, { datasetId: lead.ds.id, k: 1, controlRate: 0.5 })
    setControls(
      lead.ws.db,
      lead.ds.id,
      { fromGold: [], answers: [{ targetId: control, verdict: 'true' }] },
      'now',
    )
    const file = lead.ws.file
    lead.ws.close()
    const pkg = join(dirs.lead, 'p.jsonl')
    const args = ['package', '--workspace', file, '--dataset', 'wiki', '--annotator', 'ann0', '--out', pkg]
    expect((await cli(args)).code).toBe(0)
    const laptop = join(dirs.laptop, 'w.factlab')
    expect((await cli(['package', '--workspace', laptop, '--open', pkg])).code).toBe(0)
    const ws = Workspace.open(laptop)
    try {
      // One control, on the second unit by position, as at the lead's; the first is ordinary work.
      const marked = ws.db
        .prepare(
          'SELECT u.position FROM controls x JOIN targets t ON t.id = x.target_id JOIN units u ON u.id = t.unit_id',
        )
        .all()
      const positions = ws.db
        .prepare('SELECT position FROM units ORDER BY position, id')
        .pluck()
        .all() as number[]
      expect(marked).toEqual([{ position: positions[1] }])
      const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
      expect(projectDashboard(ws.db, ds).controls.count).toBe(1)
    } finally {
      ws.close()
    }
  })

  it('under an open plan carries only the controls its annotator would still be served (below k, not hers)', () => {
    const dir = tmp()
    const lead = seedProject(dir, { items: 3, variants: 1, facts: 2, annotators: 3 })
    const [ann0, ann1, ann2] = lead.people
    const [atK, hers, open, openToo] = lead.targets
    setPlan(lead.ws.db, { datasetId: lead.ds.id, k: 2, controlRate: 0.5 })
    setControls(
      lead.ws.db,
      lead.ds.id,
      {
        fromGold: [],
        answers: [atK!, hers!, open!, openToo!].map((targetId) => ({ targetId, verdict: 'true' })),
      },
      'now',
    )
    // Two others took this control to k; ann0 answered that one herself; a third has one label.
    for (const who of [ann1!, ann2!])
      lead.ws.labels.save({ targetId: atK!, annotatorId: who.id, verdict: 'true' })
    lead.ws.labels.save({ targetId: hers!, annotatorId: ann0!.id, verdict: 'false' })
    lead.ws.labels.save({ targetId: openToo!, annotatorId: ann1!.id, verdict: 'true' })
    const unitOf = (id: number) =>
      (
        lead.ws.db
          .prepare('SELECT u.text FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.id = ?')
          .get(id) as { text: string }
      ).text
    const out = join(dir, 'ann0.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out })
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!) as { controls: { unit: string }[] }
    expect(header.controls.map((c) => c.unit)).toEqual([unitOf(open!), unitOf(openToo!)])
    // Another annotator's package leaves out only what is closed for her.
    const other = join(dir, 'ann2.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann2', out: other })
    const theirs = JSON.parse(readFileSync(other, 'utf8').split('\n')[0]!) as { controls: { unit: string }[] }
    expect(theirs.controls.map((c) => c.unit)).toEqual([unitOf(hers!), unitOf(open!), unitOf(openToo!)])
    lead.ws.close()
  })

  it('labels merged from a laptop keep the guidelines version they were given there', async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 2, variants: 1, facts: 2, annotators: 1 })
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version one: be strict.')
    const file = lead.ws.file
    lead.ws.close()
    const pkg = join(dirs.lead, 'p.jsonl')
    expect(
      (await cli(['package', '--workspace', file, '--dataset', 'wiki', '--annotator', 'ann0', '--out', pkg]))
        .code,
    ).toBe(0)
    const laptop = join(dirs.laptop, 'w.factlab')
    expect((await cli(['package', '--workspace', laptop, '--open', pkg])).code).toBe(0)
    const ws = Workspace.open(laptop)
    const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const me = ensureAnnotator(ws.db, 'ann0').id
    expect(labelAll(ws, ds, 'ann0')).toBe(4)
    const bundle = join(dirs.laptop, 'b.jsonl')
    await exportBundle(ws, { datasetId: ds, annotatorId: me, out: bundle })
    ws.close()
    const lines = readFileSync(bundle, 'utf8').trim().split('\n').slice(1)
    expect(lines.map((l) => (JSON.parse(l) as { guidelinesVersion: number }).guidelinesVersion)).toEqual([
      1, 1, 1, 1,
    ])
    // Meanwhile the lead published version 2; the laptop's labels were given under version 1.
    const back = Workspace.open(file)
    saveGuidelines(back.db, lead.ds.id, 'Version two: be lenient.')
    await mergeBundle(back, bundle)
    expect(
      back.db
        .prepare(
          `SELECT l.guidelines_version AS v, COUNT(*) AS n FROM labels l JOIN annotators a ON a.id = l.annotator_id
           WHERE a.name = 'ann0' GROUP BY v`,
        )
        .all(),
    ).toEqual([{ v: 1, n: 4 }])
    back.close()
  })
})
