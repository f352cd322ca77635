import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { countIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from '../projects/seed'

const tmp = tmpDirs()

const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`

/** A lead's workspace (wiki: 4 items, people ann0…ann2), planned k = 2 fixed, ann1 handed a package. */
async function lead() {
  const dir = tmp()
  const { ws } = seedProject(dir, { items: 4, variants: 2, facts: 2, annotators: 3 })
  const file = ws.file
  ws.close()
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
    '7',
    '--annotators',
    'ann0:30,ann1:25,ann2:20',
  ])
  expect(assign.code, assign.err).toBe(0)
  const pkg = join(dir, 'ann1.factlab-package.jsonl')
  const r = await cli([
    'package',
    '--workspace',
    file,
    '--dataset',
    'wiki',
    '--annotator',
    'ann1',
    '--out',
    pkg,
  ])
  expect(r.code, r.err).toBe(0)
  return { dir, file, pkg }
}

/** ann1's laptop: a fresh workspace opened from ann1's package. */
async function laptop(dir: string, pkg: string): Promise<string> {
  const file = join(dir, 'laptops', 'ann1.factlab')
  const r = await cli(['package', '--workspace', file, '--open', pkg])
  expect(r.code, r.err).toBe(0)
  return file
}

const people = (file: string) => countIn(file, "SELECT COUNT(*) AS n FROM annotators WHERE kind = 'person'")
const labels = (file: string) => countIn(file, 'SELECT COUNT(*) AS n FROM labels')

describe('who labels: a wrong name is refused, never made into a person', () => {
  it('on a laptop, labels and bundles are the package annotator’s only', async () => {
    const { dir, pkg } = await lead()
    const file = await laptop(dir, pkg)
    const lines = join(dir, 'ann1.labels.jsonl')
    writeFileSync(lines, jsonl([{ item: 'q0', variant: 'v0', unit: 1, verdict: 'true' }]))
    const asDan = await cli([
      'label',
      '--file',
      lines,
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotator',
      'dan',
    ])
    expect(asDan.code).toBe(1)
    expect(asDan.err).toBe(
      `factlab: ${lines} line 1: This workspace was opened from ann1's work package for "wiki": labels here are ann1's, and the lead would refuse a bundle of dan's. Use --annotator ann1; nothing was saved\n`,
    )
    // Even asked to add a new person, a laptop does not take someone else's labels.
    const added = await cli([
      'label',
      '--file',
      lines,
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotator',
      'dan',
      '--new-annotator',
    ])
    expect(added.code).toBe(1)
    expect(people(file)).toBe(1)
    expect(labels(file)).toBe(0)

    const asAnn1 = await cli([
      'label',
      '--file',
      lines,
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotator',
      'ann1',
    ])
    expect(asAnn1.code, asAnn1.err).toBe(0)
    expect(labels(file)).toBe(1)

    const out = join(dir, 'dan.bundle.jsonl')
    const bundle = await cli([
      'bundle',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotator',
      'dan',
      '--out',
      out,
    ])
    expect(bundle.code).toBe(1)
    expect(bundle.err).toBe(
      `factlab: This workspace was opened from ann1's work package for "wiki": its bundle carries ann1's labels; the lead would refuse one of dan's. Use --annotator ann1; no bundle was written\n`,
    )
    expect(existsSync(out)).toBe(false)
  })

  it('label with a name the workspace does not know lists the people it knows, unless --new-annotator adds it', async () => {
    const { file } = await lead()
    const at = ['--workspace', file, '--dataset', 'wiki', '--item', 'q0', '--variant', 'v0', '--unit', '1']
    const typo = await cli(['label', ...at, '--verdict', 'true', '--annotator', 'ann11'])
    expect(typo.code).toBe(1)
    expect(typo.err).toBe(
      'factlab: No annotator named "ann11" in this workspace (people here: ann0, ann1, ann2). Check the spelling, or add --new-annotator to add "ann11" as a new person\n',
    )
    expect(people(file)).toBe(3)
    const meant = await cli(['label', ...at, '--verdict', 'true', '--annotator', 'ann11', '--new-annotator'])
    expect(meant.code, meant.err).toBe(0)
    expect(people(file)).toBe(4)
  })

  it('assign says which names are new, and will not drop someone with a package unless --drop confirms it', async () => {
    const { file } = await lead()
    const plan = () => countIn(file, 'SELECT COUNT(*) AS n FROM plan_annotators')
    const split = () =>
      countIn(
        file,
        "SELECT COUNT(*) AS n FROM assignments a JOIN annotators p ON p.id = a.annotator_id WHERE p.name = 'ann1'",
      )
    const before = split()
    const typo = await cli([
      'assign',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotators',
      'ann0:30,annn1:25,ann2:20',
    ])
    expect(typo.code).toBe(1)
    expect(typo.err).toBe(
      'factlab: --annotators leaves out ann1 (1 package of "wiki", not back yet) ("annn1" is not in this workspace: a misspelling?). ' +
        'The fixed split would be redrawn without them, and the items their package holds would go to others. ' +
        'Keep them in --annotators, or confirm with --drop ann1; the plan was not changed\n',
    )
    // Nothing changed: no new person, ann1 keeps their items.
    expect(people(file)).toBe(3)
    expect(plan()).toBe(3)
    expect(split()).toBe(before)

    const added = await cli([
      'assign',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotators',
      'ann0,ann1,ann2,dora',
    ])
    expect(added.code, added.err).toBe(0)
    expect(added.out).toMatch(/\nNew in this workspace: dora \(not known before; check the spelling\)\n$/)

    const dropped = await cli([
      'assign',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotators',
      'ann0,ann2,dora',
      '--drop',
      'ann1',
    ])
    expect(dropped.code, dropped.err).toBe(0)
    expect(split()).toBe(0)
  })

  it('a laptop shows the lead’s plan and will not change it', async () => {
    const { dir, pkg } = await lead()
    const file = await laptop(dir, pkg)
    const shown = await cli(['assign', '--workspace', file, '--dataset', 'wiki'])
    expect(shown.out).toBe(
      "Dataset wiki came from ann1's work package; the lead's plan: k = 2, fixed assignment, no controls (change it in the lead's workspace)\n",
    )
    const json = JSON.parse((await cli(['assign', '--workspace', file, '--dataset', 'wiki', '--json'])).out)
    expect(json).toMatchObject({ k: 2, policy: 'fixed', seed: 7 })
    const change = await cli(['assign', '--workspace', file, '--dataset', 'wiki', '--k', '1'])
    expect(change.code).toBe(1)
    expect(change.err).toMatch(
      /^factlab: This workspace was opened from ann1's work package: the plan is the lead's/,
    )
  })
})

describe('CLI refusals', () => {
  it('print the message a person reads, without the internal code, and keep the exit code', async () => {
    const { file } = await lead()
    const r = await cli([
      'call',
      'projects.setControls',
      '{"datasetId":1,"answers":[{"targetId":99999,"verdict":"true"}]}',
      '--workspace',
      file,
    ])
    expect(r.code).toBe(1)
    expect(r.err).toBe('factlab: No controls were marked: target 99999 is not in this dataset\n')
    const usage = await cli(['call', 'projects.nothing', '{}', '--workspace', file])
    expect(usage.code).toBe(2)
  })
})

describe('a laptop’s own screens', () => {
  it('the Datasets card measures the package’s share, and the app refuses another name’s label there too', async () => {
    const { dir, pkg } = await lead()
    const file = await laptop(dir, pkg)
    const list = JSON.parse((await cli(['call', 'datasets.list', '{}', '--workspace', file])).out) as {
      plan: { k: number; towards: number; wanted: number; package: { annotator: string } | null }
    }[]
    const assigned = countIn(
      file,
      'SELECT COUNT(*) AS n FROM assignments a JOIN targets t ON t.item_id = a.item_id',
    )
    // ann1's items, not k × every target (which only the lead's workspace can reach).
    expect(list[0]!.plan).toEqual(
      expect.objectContaining({ k: 2, towards: 0, wanted: assigned, package: { annotator: 'ann1' } }),
    )
    const target = countIn(
      file,
      'SELECT MIN(t.id) AS n FROM assignments a JOIN targets t ON t.item_id = a.item_id',
    )
    const save = (who: string) =>
      cli([
        'call',
        'annotate.save',
        JSON.stringify({ targetId: target, verdict: 'true' }),
        '--workspace',
        file,
        '--annotator',
        who,
      ])
    const other = await save('ann0')
    expect(other.code).toBe(1)
    expect(other.err).toMatch(
      /^factlab: This workspace was opened from ann1's work package: only ann1 labels here/,
    )
    expect((await save('ann1')).code).toBe(0)
    const after = JSON.parse((await cli(['call', 'datasets.list', '{}', '--workspace', file])).out)
    expect(after[0].plan).toMatchObject({ towards: 1, wanted: assigned })
  })
})

describe('a laptop leaves controls and packages to the lead, as it leaves the plan', () => {
  it('refuses to save guidelines, which are the lead’s and arrive with a newer package, changing nothing', async () => {
    const { dir, pkg } = await lead()
    const file = await laptop(dir, pkg)
    const versions = () => countIn(file, 'SELECT COUNT(*) AS n FROM guidelines')
    const before = versions()
    const rules = join(dir, 'mine.md')
    writeFileSync(rules, 'A fact is true when I say so.')
    const saved = await cli([
      'guidelines',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--file',
      rules,
      '--as',
      'ann1',
    ])
    expect(saved.code).toBe(1)
    expect(saved.err).toBe(
      "factlab: This workspace was opened from ann1's work package: the guidelines are the lead's. Edit them in the lead's workspace and hand out a new package, which brings them here. Nothing was changed\n",
    )
    expect(versions()).toBe(before)
  })

  it('refuses to mark or clear controls and to write a package, from the CLI and through the call, changing nothing', async () => {
    const { dir, pkg } = await lead()
    const file = await laptop(dir, pkg)
    const controls = () => countIn(file, 'SELECT COUNT(*) AS n FROM controls')
    const packages = () => countIn(file, 'SELECT COUNT(*) AS n FROM packages')
    const before = { controls: controls(), packages: packages() }
    const refused =
      /^factlab: This workspace was opened from ann1's work package: the control items are the lead's\. Mark or clear them in the lead's workspace and hand out a new package\. Nothing was changed\n$/

    const set = await cli([
      'controls',
      'set',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--line',
      'q0,v0,1,true',
    ])
    expect(set.code).toBe(1)
    expect(set.err).toMatch(refused)
    const clear = await cli(['controls', 'clear', '--workspace', file, '--dataset', 'wiki', '--all'])
    expect(clear.code).toBe(1)
    expect(clear.err).toMatch(refused)

    const out = join(dir, 'again.factlab-package.jsonl')
    const again = await cli([
      'package',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--annotator',
      'ann1',
      '--out',
      out,
    ])
    expect(again.code).toBe(1)
    expect(again.err).toMatch(
      /^factlab: This workspace was opened from ann1's work package: packages are written in the lead's workspace\. To send ann1's labels back, write a bundle/,
    )
    expect(existsSync(out)).toBe(false)
    // The Project view's button makes the same call: refused before its exports folder is made.
    const viaCall = await cli([
      'call',
      'projects.exportPackage',
      JSON.stringify({ datasetId: countIn(file, 'SELECT MIN(id) AS n FROM datasets'), annotator: 'ann1' }),
      '--workspace',
      file,
    ])
    expect(viaCall.code).toBe(1)
    expect(viaCall.err).toMatch(/packages are written in the lead's workspace/)
    expect(existsSync(join(dir, 'laptops', 'exports'))).toBe(false)
    expect({ controls: controls(), packages: packages() }).toEqual(before)
  })
})
