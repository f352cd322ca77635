import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { labelHistory } from '../../src/main/labels/labels'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { addUnit, deleteUnit, editUnit } from '../../src/main/units/edit'
import { unitVersions } from '../../src/main/units/queries'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** A laptop after its first start: the bundled demo, labelled by its two annotators. */
function laptop(dir: string, name: string) {
  const ws = Workspace.open(freshWorkspaceFile(join(dir, `${name}.factlab`)))
  const { datasetId } = loadDemoIfEmpty(ws)
  return { ws, datasetId: datasetId! }
}
type Laptop = ReturnType<typeof laptop>

/** The current fact at `index` (reading order) of the demo's first item. */
function fact(l: Laptop, index: number): { id: number; text: string } {
  return l.ws.db
    .prepare(
      `SELECT u.id, u.text FROM units u JOIN items i ON i.id = u.item_id
       WHERE i.dataset_id = ? AND i.position = 0 AND u.kind = 'fact' AND u.superseded_by IS NULL
         AND u.deleted_at IS NULL ORDER BY u.position, u.id LIMIT 1 OFFSET ?`,
    )
    .get(l.datasetId, index) as { id: number; text: string }
}

function itemOf(l: Laptop): number {
  return (
    l.ws.db.prepare('SELECT id FROM items WHERE dataset_id = ? AND position = 0').get(l.datasetId) as {
      id: number
    }
  ).id
}

function targetOf(l: Laptop, unitId: number, variant = 'answer'): number {
  return (
    l.ws.db
      .prepare(
        'SELECT t.id FROM targets t JOIN candidates c ON c.id = t.candidate_id WHERE t.unit_id = ? AND c.variant = ?',
      )
      .get(unitId, variant) as { id: number }
  ).id
}

function label(l: Laptop, unitId: number, verdict: string, at: string, variant = 'answer') {
  const cleo = ensureAnnotator(l.ws.db, 'Cleo')
  l.ws.labels.save({ targetId: targetOf(l, unitId, variant), annotatorId: cleo.id, verdict }, 'set', at)
}

/**
 * Cleo's labels as a person reads them in the units view: the item, the answer, the text of
 * the very version labelled, and whether that version is current, deleted or an earlier
 * version of which current text.
 */
function cleosLabels(l: Laptop): string[] {
  const rows = l.ws.db
    .prepare(
      `SELECT i.ext_id AS item, c.variant, u.id, u.text, u.superseded_by AS sup, u.deleted_at AS del, l.verdict
       FROM labels l JOIN annotators a ON a.id = l.annotator_id AND a.name = 'Cleo'
       JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id`,
    )
    .all() as {
    item: string
    variant: string
    id: number
    text: string
    sup: number | null
    del: string | null
    verdict: string
  }[]
  const latestText = (id: number): string => {
    const u = l.ws.db.prepare('SELECT text, superseded_by AS sup FROM units WHERE id = ?').get(id) as {
      text: string
      sup: number | null
    }
    return u.sup === null ? u.text : latestText(u.sup)
  }
  return rows
    .map((r) => {
      const state =
        r.sup !== null ? `earlier version of "${latestText(r.sup)}"` : r.del ? 'deleted' : 'current'
      return `${r.item} | ${r.variant} | "${r.text}" (${state}) → ${r.verdict}`
    })
    .sort()
}

const counts = (l: Laptop) =>
  l.ws.db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM units) AS units, (SELECT COUNT(*) FROM targets) AS targets,
        (SELECT COUNT(*) FROM labels) AS labels, (SELECT COUNT(*) FROM label_history) AS history`,
    )
    .get()

async function bundleOf(l: Laptop, dir: string): Promise<string> {
  const out = join(dir, `cleo-${Math.random().toString(36).slice(2)}.bundle.jsonl`)
  const cleo = ensureAnnotator(l.ws.db, 'Cleo')
  await exportBundle(l.ws, { datasetId: l.datasetId, annotatorId: cleo.id, out })
  return out
}

const T1 = '2026-05-01T09:00:00.000Z'
const T2 = '2026-05-01T09:05:00.000Z'
const T3 = '2026-05-01T09:10:00.000Z'

describe('bundles carry labels on earlier unit versions', () => {
  it('puts a label on the old wording and one on the new wording on the matching versions', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const f = fact(a, 0)
    const sharper = `${f.text} (near-infrared and mid-infrared)`
    label(a, f.id, 'true', T1)
    const edited = editUnit(a.ws.db, f.id, sharper)
    expect(edited.versioned).toBe(true)
    label(a, edited.unit.id, 'false', T2)
    // The same edit on the other laptop (the demo's annotators had labelled the fact there too).
    expect(editUnit(b.ws.db, fact(b, 0).id, sharper).versioned).toBe(true)

    const report = await mergeBundle(b.ws, await bundleOf(a, dir))
    expect(report).toMatchObject({ added: 2, earlier_versions: 1, recreated_versions: 0, recreated: [] })
    expect(cleosLabels(b)).toEqual(cleosLabels(a))
    expect(cleosLabels(b)).toEqual([
      `demo-01 | answer | "${sharper}" (current) → false`,
      `demo-01 | answer | "${f.text}" (earlier version of "${sharper}") → true`,
    ])
  })

  it('recreates a version the other workspace never had, and a second merge changes nothing', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const f = fact(a, 1)
    const draft = 'The telescope went up in late December 2021.'
    const final = 'The James Webb Space Telescope was launched on Christmas Day 2021.'
    // Cleo labelled every wording on A; B went from the first wording straight to the last.
    label(a, f.id, 'true', T1)
    const v2 = editUnit(a.ws.db, f.id, draft).unit
    label(a, v2.id, 'true', T2)
    const v3 = editUnit(a.ws.db, v2.id, final).unit
    label(a, v3.id, 'false', T3)
    const latestOnB = editUnit(b.ws.db, fact(b, 1).id, final).unit

    const bundle = await bundleOf(a, dir)
    const first = await mergeBundle(b.ws, bundle)
    expect(first).toMatchObject({ added: 3, earlier_versions: 2, recreated_versions: 1 })
    expect(first.recreated).toEqual([
      { item: 'demo-01', variant: null, kind: 'fact', text: draft, deleted: false },
    ])
    expect(cleosLabels(b)).toEqual(cleosLabels(a))
    // The units view on B lists the recreated wording as an earlier version, with Cleo's label.
    const versions = unitVersions(b.ws.db, latestOnB.lineageId)
    const recreated = versions.find((v) => v.unit.text === draft)!
    expect(recreated.unit.supersededBy).toBe(latestOnB.id)
    expect(recreated.labels).toContainEqual(expect.objectContaining({ annotator: 'Cleo', verdict: 'true' }))
    expect(versions.map((v) => v.unit.text).at(-1)).toBe(final)
    // Numbered after the version it came from, and the newer one moved up: 1, 2, 3.
    expect(versions.map((v) => v.unit.version)).toEqual([1, 2, 3])
    expect(recreated.unit.version).toBe(2)

    const after = { counts: counts(b), labels: cleosLabels(b) }
    const second = await mergeBundle(b.ws, bundle)
    expect(second).toMatchObject({ added: 0, updated: 0, unchanged: 3, recreated_versions: 0 })
    expect({ counts: counts(b), labels: cleosLabels(b) }).toEqual(after)
  })

  it('has `factlab merge` count the labels on earlier versions and name the versions it recreated', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const f = fact(a, 1)
    const draft = 'Launched in December 2021.'
    label(a, f.id, 'true', T1)
    const v2 = editUnit(a.ws.db, f.id, draft).unit
    label(a, v2.id, 'true', T2)
    editUnit(a.ws.db, v2.id, 'Launched on 25 December 2021.')
    editUnit(b.ws.db, fact(b, 1).id, 'Launched on 25 December 2021.')
    const bundle = await bundleOf(a, dir)
    b.ws.close()

    const merged = await cli(['merge', bundle, '--workspace', join(dir, 'b.factlab')])
    expect(merged.code).toBe(0)
    expect(merged.out).toContain('2 added')
    expect(merged.out).toContain('2 of them on earlier unit versions, 1 unit version recreated here')
    expect(merged.out).toContain(`recreated earlier fact of item demo-01: ${draft}`)
  })

  it('keeps both sides when an earlier version was labelled differently on each', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const newText = 'The James Webb Space Telescope orbits the Sun near L2.'
    label(a, fact(a, 2).id, 'true', T1)
    const oldOnB = fact(b, 2).id
    label(b, oldOnB, 'false', T2)
    editUnit(a.ws.db, fact(a, 2).id, newText)
    editUnit(b.ws.db, oldOnB, newText)

    const report = await mergeBundle(b.ws, await bundleOf(a, dir))
    expect(report).toMatchObject({ added: 0, kept_local: 1, earlier_versions: 1 })
    const cleo = ensureAnnotator(b.ws.db, 'Cleo')
    expect(
      labelHistory(b.ws.db, targetOf(b, oldOnB), cleo.id).map((h) => [
        h.verdict,
        h.action,
        h.mergedFrom !== null,
      ]),
    ).toEqual([
      ['false', 'set', false],
      // The merged state keeps the action it was given with; the merge is recorded beside it.
      ['true', 'set', true],
    ])
    expect(cleosLabels(b)).toEqual([
      'demo-01 | answer | "The James Webb Space Telescope orbits around the second Sun–Earth Lagrange point." (earlier version of "The James Webb Space Telescope orbits the Sun near L2.") → false',
    ])
  })

  it('carries labels on deleted units, onto the same wording here or a recreated deleted unit', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const gone = fact(a, 4)
    label(a, gone.id, 'true', T1, 'poor_answer')
    deleteUnit(a.ws.db, gone.id)
    // B reworded the fact before deleting it, so its deleted unit has another text.
    const reworded = editUnit(b.ws.db, fact(b, 4).id, 'The mirror has eighteen hexagonal segments.').unit
    deleteUnit(b.ws.db, reworded.id)

    const own = 'The mirror is made of beryllium.'
    const added = addUnit(a.ws.db, { itemId: itemOf(a), kind: 'fact', text: own })
    label(a, added.id, 'false', T2)
    deleteUnit(a.ws.db, added.id)

    const bundle = await bundleOf(a, dir)
    const first = await mergeBundle(b.ws, bundle)
    // B has the deleted wording as the first version of its own deleted unit: the label lands there.
    // The unit A added, B never had: it is recreated, deleted as on A.
    expect(first).toMatchObject({ added: 2, earlier_versions: 2, recreated_versions: 1 })
    expect(first.recreated).toEqual([
      { item: 'demo-01', variant: null, kind: 'fact', text: own, deleted: true },
    ])
    expect(cleosLabels(b)).toEqual([
      `demo-01 | answer | "${own}" (deleted) → false`,
      `demo-01 | poor_answer | "${gone.text}" (earlier version of "The mirror has eighteen hexagonal segments.") → true`,
    ])
    const after = counts(b)
    expect(await mergeBundle(b.ws, bundle)).toMatchObject({ unchanged: 2, recreated_versions: 0 })
    expect(counts(b)).toEqual(after)
  })

  it('still merges a version 1 bundle, and refuses one from a newer FactLab', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const [f0, f1] = [fact(a, 0), fact(a, 1)]
    label(a, f0.id, 'not_clear', T1)
    label(a, f1.id, 'true', T1, 'ungrounded_answer')
    // What FactLab wrote before version 2: the same header and lines, current units only.
    const v3 = readFileSync(await bundleOf(a, dir), 'utf8')
    expect(v3).not.toMatch(/"earlier"|"deleted"/)
    const v1 = join(dir, 'v1.bundle.jsonl')
    writeFileSync(v1, v3.replace('"version":3', '"version":1'))
    const before = counts(b)

    const newer = join(dir, 'v4.bundle.jsonl')
    writeFileSync(newer, v3.replace('"version":3', '"version":4'))
    await expect(mergeBundle(b.ws, newer)).rejects.toThrow(/written by a newer FactLab \(bundle version 4\)/)
    const v1WithEarlier = join(dir, 'v1-earlier.bundle.jsonl')
    writeFileSync(
      v1WithEarlier,
      v3
        .replace('"version":3', '"version":1')
        .replace(
          '"occurrence":0,',
          '"occurrence":0,"earlier":{"newer":[],"latest":{"unit":"x","occurrence":0}},',
        ),
    )
    await expect(mergeBundle(b.ws, v1WithEarlier)).rejects.toThrow(
      /version 1 bundle carries labels on current units only/,
    )
    expect(counts(b)).toEqual(before)

    expect(await mergeBundle(b.ws, v1)).toMatchObject({ added: 2, earlier_versions: 0 })
    expect(cleosLabels(b)).toEqual(cleosLabels(a))
  })

  it('merges a bundle whose units were edited differently on each side', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const first = fact(a, 0).text
    label(a, fact(a, 0).id, 'true', T1)
    const sees = editUnit(a.ws.db, fact(a, 0).id, 'JWST sees infrared light.').unit
    label(a, sees.id, 'false', T2)
    editUnit(b.ws.db, fact(b, 0).id, 'JWST observes in the infrared.')

    const bundle = await bundleOf(a, dir)
    const report = await mergeBundle(b.ws, bundle)
    expect(report).toMatchObject({ added: 2, earlier_versions: 2, recreated_versions: 1 })
    expect(cleosLabels(b)).toEqual([
      'demo-01 | answer | "JWST sees infrared light." (earlier version of "JWST observes in the infrared.") → false',
      `demo-01 | answer | "${first}" (earlier version of "JWST observes in the infrared.") → true`,
    ])
    const after = counts(b)
    expect(await mergeBundle(b.ws, bundle)).toMatchObject({ unchanged: 2, recreated_versions: 0 })
    expect(counts(b)).toEqual(after)
  })

  it('refuses a version 2 bundle once units were edited, as FactLab did, and changes nothing', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    label(a, fact(a, 0).id, 'true', T1)
    editUnit(b.ws.db, fact(b, 0).id, 'JWST observes in the infrared.')
    const v2 = join(dir, 'v2.bundle.jsonl')
    writeFileSync(v2, readFileSync(await bundleOf(a, dir), 'utf8').replace('"version":3', '"version":2'))
    const before = counts(b)
    await expect(mergeBundle(b.ws, v2)).rejects.toThrow(
      /bundle is for dataset "Demo: WikiEval-style" \(content [0-9a-f]{12}\), but dataset "Demo: WikiEval-style" here has different content/,
    )
    expect(counts(b)).toEqual(before)
    expect(cleosLabels(b)).toEqual([])
  })
})
