import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { datasetContentHash } from '../../src/main/export/contentHash'
import { readBundle } from '../../src/main/export/merge'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { alignUnits } from '../../src/main/projects/packageRefresh'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { addUnit, deleteUnit, editUnit } from '../../src/main/units/edit'
import { describeRefresh } from '../../src/shared/packageRefresh'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

/** Every label and history state as content: (item, variant, unit wording, annotator) → verdict. */
function labelsByContent(ws: Workspace, table: 'labels' | 'label_history' = 'labels'): string[] {
  return (
    ws.db
      .prepare(
        `SELECT i.ext_id || '|' || c.variant || '|' || u.text || '|' || a.name || '=' || COALESCE(l.verdict, '-') AS k
         FROM ${table} l JOIN targets t ON t.id = l.target_id JOIN items i ON i.id = t.item_id
         JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
         JOIN annotators a ON a.id = l.annotator_id ORDER BY k`,
      )
      .all() as { k: string }[]
  ).map((r) => r.k)
}

function labelAll(ws: Workspace, datasetId: number, name: string): number {
  const me = ensureAnnotator(ws.db, name).id
  let n = 0
  for (;;) {
    const { targetId } = nextTarget(ws.db, { datasetId, annotatorId: me })
    if (targetId === null) return n
    ws.labels.save({ targetId, annotatorId: me, verdict: n % 2 ? 'true' : 'false', seconds: 2 })
    n++
  }
}

const unitId = (ws: Workspace, text: string) =>
  (ws.db.prepare('SELECT id FROM units WHERE text = ? AND superseded_by IS NULL').get(text) as { id: number })
    .id

/** The lead's v1 package opened and labelled on ann0's laptop; the lead then edits and sends v2. */
function laptopWithRefresh() {
  const dirs = { lead: tmp(), laptop: tmp() }
  const lead = seedProject(dirs.lead, { items: 3, variants: 1, facts: 2, annotators: 2 })
  saveGuidelines(lead.ws.db, lead.ds.id, 'Version one: be strict.')
  const v1 = join(dirs.lead, 'ann0-v1.jsonl')
  exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: v1 })
  const laptop = Workspace.open(freshWorkspaceFile(join(dirs.laptop, 'w.factlab')))
  const opened = openPackage(laptop, v1)
  expect(labelAll(laptop, opened.datasetId, 'ann0')).toBe(6)
  // The lead rewords an unlabelled unit (in place) and one ann1 labelled (a new version), adds
  // a unit, removes one, and publishes guidelines v2.
  editUnit(lead.ws.db, unitId(lead.ws, 'Fact 0.0'), 'Fact 0.0, said better')
  const checked = lead.ws.db
    .prepare('SELECT t.id FROM targets t WHERE t.unit_id = ?')
    .get(unitId(lead.ws, 'Fact 1.0')) as { id: number }
  lead.ws.labels.save({ targetId: checked.id, annotatorId: lead.people[1]!.id, verdict: 'true' })
  editUnit(lead.ws.db, unitId(lead.ws, 'Fact 1.0'), 'Fact 1.0, said better')
  const item2 = (lead.ws.db.prepare("SELECT id FROM items WHERE ext_id = 'q2'").get() as { id: number }).id
  addUnit(lead.ws.db, { itemId: item2, kind: 'fact', text: 'Fact 2.2, new' })
  deleteUnit(lead.ws.db, unitId(lead.ws, 'Fact 2.1'))
  saveGuidelines(lead.ws.db, lead.ds.id, 'Version two: be lenient.')
  const v2 = join(dirs.lead, 'ann0-v2.jsonl')
  exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: v2 })
  return { dirs, lead, laptop, datasetId: opened.datasetId, v1, v2 }
}

describe('a refreshed work package', () => {
  it('updates the laptop in place: edits, new units and guidelines arrive, every label stays on its wording', async () => {
    const { dirs, lead, laptop, datasetId, v2 } = laptopWithRefresh()
    const before = labelsByContent(laptop)
    const historyBefore = labelsByContent(laptop, 'label_history')
    const r = openPackage(laptop, v2)
    expect(r.alreadyOpen).toBe(false)
    expect(r.refreshed).toEqual({
      itemsAdded: 0,
      unitsAdded: 1,
      unitsUpdated: 2,
      unitsRemoved: 1,
      guidelinesVersion: 2,
    })
    expect(describeRefresh(r.refreshed!)).toBe('2 units updated, 1 unit added, 1 unit removed, guidelines v2')
    // Nothing labelled is lost: the same verdicts on the same wordings, history included.
    expect(labelsByContent(laptop)).toEqual(before)
    expect(labelsByContent(laptop, 'label_history')).toEqual(historyBefore)
    // The laptop now shows what the lead's dataset says.
    expect(datasetContentHash(laptop.db, datasetId)).toBe(datasetContentHash(lead.ws.db, lead.ds.id))
    // Her queue offers the reworded and the new units, labelled under the new guidelines.
    expect(labelAll(laptop, datasetId, 'ann0')).toBe(3)
    expect(
      laptop.db
        .prepare(
          `SELECT u.text FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
           WHERE l.guidelines_version = 2 ORDER BY u.text`,
        )
        .all(),
    ).toEqual([
      { text: 'Fact 0.0, said better' },
      { text: 'Fact 1.0, said better' },
      { text: 'Fact 2.2, new' },
    ])
    // Her bundle names the newer package and merges on the lead's side, old wordings and new.
    const bundle = join(dirs.laptop, 'b.jsonl')
    await exportBundle(laptop, { datasetId, annotatorId: ensureAnnotator(laptop.db, 'ann0').id, out: bundle })
    expect(readBundle(bundle).header.package?.id).toBe(r.id)
    const mine = labelsByContent(laptop)
    laptop.close()
    const merged = await mergeBundle(lead.ws, bundle)
    expect(merged.added).toBe(9)
    expect(labelsByContent(lead.ws).filter((k) => k.includes('|ann0='))).toEqual(mine)
    lead.ws.close()
  })

  it('a unit reworded in place twice comes back as one update, its labels on the wording they were given on', () => {
    const { dirs, lead, laptop, datasetId, v2 } = laptopWithRefresh()
    openPackage(laptop, v2)
    expect(labelAll(laptop, datasetId, 'ann0')).toBe(3)
    const before = labelsByContent(laptop)
    // Nobody labelled it on the lead's side, so nothing there marks the wording the laptop has.
    editUnit(lead.ws.db, unitId(lead.ws, 'Fact 0.0, said better'), 'Fact 0.0, said best')
    const v3 = join(dirs.lead, 'ann0-v3.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: v3 })
    const r = openPackage(laptop, v3)
    expect(describeRefresh(r.refreshed!)).toBe('1 unit updated')
    expect(labelsByContent(laptop)).toEqual(before)
    expect(datasetContentHash(laptop.db, datasetId)).toBe(datasetContentHash(lead.ws.db, lead.ds.id))
    // The new wording is hers to label again; nothing else is.
    expect(labelAll(laptop, datasetId, 'ann0')).toBe(1)
  })

  it('opening the same refresh again changes nothing', () => {
    const { lead, laptop, v2 } = laptopWithRefresh()
    openPackage(laptop, v2)
    const units = laptop.db.prepare('SELECT COUNT(*) AS n FROM units').get()
    expect(openPackage(laptop, v2)).toMatchObject({ alreadyOpen: true, refreshed: null })
    expect(laptop.db.prepare('SELECT COUNT(*) AS n FROM units').get()).toEqual(units)
    laptop.close()
    lead.ws.close()
  })

  it("refuses another annotator's package of the same dataset, and another lead's dataset of that name, unchanged", () => {
    const { dirs, lead, laptop } = laptopWithRefresh()
    const before = labelsByContent(laptop)
    const bens = join(dirs.lead, 'ann1.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann1', out: bens })
    expect(() => openPackage(laptop, bens)).toThrow(
      /holds ann0's work package for "wiki"; this package is ann1's.*Nothing was changed/,
    )
    // Another lead's "wiki": same name, other content.
    const other = seedProject(tmp(), { items: 2, variants: 1, facts: 1, annotators: 1 })
    other.ws.content.insertItem(other.ds.id, { extId: 'x', reference: 'Something else.' }, 9)
    const foreign = join(dirs.lead, 'foreign.jsonl')
    exportPackage(other.ws, { datasetId: other.ds.id, annotator: 'ann0', out: foreign })
    expect(() => openPackage(laptop, foreign)).toThrow(
      /already holds a different dataset named "wiki".*Nothing was changed/,
    )
    expect(labelsByContent(laptop)).toEqual(before)
    expect(laptop.db.prepare('SELECT COUNT(*) AS n FROM package_opened').get()).toEqual({ n: 1 })
    expect(laptop.db.prepare('SELECT MAX(version) AS v FROM guidelines').get()).toEqual({ v: 1 })
    other.ws.close()
    laptop.close()
    lead.ws.close()
  })

  it('the CLI says what changed', async () => {
    const { laptop, lead, v2 } = laptopWithRefresh()
    const file = laptop.file
    laptop.close()
    lead.ws.close()
    const r = await cli(['package', '--workspace', file, '--open', v2])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(
      /Updated "wiki" from ann0's newer package: 2 units updated, 1 unit added, 1 unit removed, guidelines v2\. Every label ann0 made is kept/,
    )
  })
})

describe('alignUnits', () => {
  const u = (text: string) => ({ text })
  it('keeps same wordings, finds rewordings by an earlier wording, adds and removes the rest', () => {
    const plan = alignUnits(
      [u('a'), u('b'), u('c')],
      [u('a'), { text: 'b2', was: ['b'] }, u('d'), { text: 'x', was: ['gone'] }],
    )
    expect(plan.same.map((p) => p.to.text)).toEqual(['a'])
    expect(plan.reworded.map((p) => [p.unit.text, p.to.text])).toEqual([['b', 'b2']])
    expect(plan.added.map((p) => p.text)).toEqual(['d', 'x'])
    expect(plan.removed.map((p) => p.text)).toEqual(['c'])
  })
  it('pairs repeated wordings one to one', () => {
    const plan = alignUnits([u('a'), u('a')], [u('a'), u('a'), u('a')])
    expect(plan.same).toHaveLength(2)
    expect(plan.added).toHaveLength(1)
  })
})
