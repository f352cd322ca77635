import { describe, expect, it } from 'vitest'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { datasetIdByName } from '../../src/main/export/datasetExport'
import { importFile } from '../../src/main/import'
import { createHiddenDataset, visibleDatasetCount } from '../../src/main/import/hidden'
import { LabelWriter } from '../../src/main/labels/labels'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import {
  datasetStats,
  findDatasetByName,
  listDatasets,
  recountDatasetStats,
} from '../../src/main/store/repos/datasets'
import { holisticSchema } from '../../src/shared/labelSchemas'
import { checkSearchIndex, GRADED, gradedFile, searchHits, snapshot } from './graded'
import { fixture, rows, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('an import in progress', () => {
  it('lets another connection save a label at once, stays hidden, and then appears whole', async () => {
    const ws = newWs()
    const first = await importFile(ws, { file: fixture('wikievalfacts.csv'), datasetName: 'labelled' })
    const ui = openWorkspace(ws.file, { skipQuickCheck: true })
    // A save that had to wait for the import would fail outright.
    ui.pragma('busy_timeout = 0')
    const labels = new LabelWriter(ui)
    const ana = ensureAnnotator(ui, 'ana').id
    const target = (
      ui.prepare('SELECT id FROM targets WHERE dataset_id = ? LIMIT 1').get(first.datasetId) as { id: number }
    ).id
    const file = gradedFile(dir(), 3000)
    let finished = false
    const importing = importFile(ws, {
      file,
      mapping: GRADED,
      creditExistingPeople: true,
      datasetName: 'big',
    }).finally(() => {
      finished = true
    })
    const seen: {
      itemsSoFar: number
      visible: string[]
      byName: unknown
      count: number
      saved: string | null
    }[] = []
    while (!finished) {
      await turn()
      const hidden = ui
        .prepare(
          `SELECT c.items AS items FROM datasets d JOIN dataset_counts c ON c.dataset_id = d.id
           WHERE d.name = 'big' AND d.state = 'importing'`,
        )
        .get() as { items: number } | undefined
      if (!hidden || hidden.items === 0 || seen.length > 0) continue
      seen.push({
        itemsSoFar: hidden.items,
        visible: listDatasets(ui).map((d) => d.name),
        byName: findDatasetByName(ui, 'big'),
        count: visibleDatasetCount(ui),
        saved: labels.save({ targetId: target, annotatorId: ana, verdict: 'false' }).verdict,
      })
    }
    const report = await importing
    ui.close()

    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ visible: ['labelled'], byName: null, count: 1, saved: 'false' })
    expect(seen[0]!.itemsSoFar).toBeLessThan(3000)
    expect(() => datasetIdByName(ws, 'nope')).toThrow('(it has "big", "labelled")')
    expect(report).toMatchObject({ items: 3000, labels: 6000 })
    expect(listDatasets(ws.db).map((d) => d.name)).toEqual(['labelled', 'big'])
    expect(
      rows(ws, 'SELECT verdict FROM labels WHERE target_id = ? AND annotator_id = ?', target, ana),
    ).toEqual([{ verdict: 'false' }])
    expect(datasetStats(ws.db, report.datasetId)).toEqual(recountDatasetStats(ws.db, report.datasetId))
    expect(rows(ws, 'SELECT COUNT(*) AS n FROM dataset_imports')).toEqual([{ n: 0 }])
    checkSearchIndex(ws)
  })

  it('runs alongside a second import into the same workspace; both complete whole', async () => {
    const ws = newWs()
    const [a, b] = await Promise.all([
      importFile(ws, {
        file: gradedFile(dir(), 1500, {}, 'a.csv'),
        mapping: GRADED,
        creditExistingPeople: true,
        datasetName: 'a',
      }),
      importFile(ws, {
        file: gradedFile(dir(), 1200, {}, 'b.csv'),
        mapping: GRADED,
        creditExistingPeople: true,
        datasetName: 'b',
      }),
    ])
    expect(a).toMatchObject({ items: 1500, labels: 3000 })
    expect(b).toMatchObject({ items: 1200, labels: 2400 })
    // Whichever import met a grader first added them; the other found them there.
    expect(rows(ws, 'SELECT name FROM annotators ORDER BY name')).toEqual([{ name: 'ana' }, { name: 'zed' }])
    expect(
      listDatasets(ws.db)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['a', 'b'])
    for (const r of [a, b])
      expect(datasetStats(ws.db, r.datasetId)).toEqual(recountDatasetStats(ws.db, r.datasetId))
    checkSearchIndex(ws)
    const hits = searchHits(ws, 'orchard')
    expect(hits.length).toBeGreaterThan(0)
    ws.db.exec("INSERT INTO items_fts (items_fts) VALUES ('rebuild')")
    expect(searchHits(ws, 'orchard')).toEqual(hits)
  })

  it('makes a second import under the same name wait for nothing: it is refused, saying why', async () => {
    const ws = newWs()
    // The first import, still running: its dataset exists, hidden.
    createHiddenDataset(ws.db, { name: 'same', labelSchema: holisticSchema() })
    await expect(
      importFile(ws, { file: gradedFile(dir(), 10), mapping: GRADED, datasetName: 'same' }),
    ).rejects.toThrow(
      'A dataset named "same" is being imported right now; wait for it to finish or choose another dataset name',
    )
    expect(rows(ws, 'SELECT name, state FROM datasets')).toEqual([{ name: 'same', state: 'importing' }])
  })

  it('does not count as a dataset when the demo decides whether the workspace is empty', () => {
    const ws = newWs()
    createHiddenDataset(ws.db, { name: 'arriving', labelSchema: holisticSchema() })
    expect(loadDemoIfEmpty(ws).loaded).toBe(true)
    expect(listDatasets(ws.db)).toHaveLength(1)
    expect(loadDemoIfEmpty(ws).loaded).toBe(false)
  })
})

describe('an import that fails part-way', () => {
  it('leaves the workspace exactly as it was: no items, labels, gold, history or new annotators', async () => {
    const ws = newWs()
    await importFile(ws, { file: fixture('wikievalfacts.csv'), datasetName: 'labelled' })
    ensureAnnotator(ws.db, 'ana')
    const before = snapshot(ws)
    // Line 1900 comes after several chunks were committed.
    const file = gradedFile(dir(), 2000, { 1900: 'c1;Again?;Ref.;Answer.;pass;fail;' })
    await expect(importFile(ws, { file, mapping: GRADED, creditExistingPeople: true })).rejects.toThrow(
      `${file}, line 1900: field "case": duplicate item id "c1"`,
    )
    expect(snapshot(ws)).toEqual(before)
    checkSearchIndex(ws)
    expect(searchHits(ws, 'glacier')).toEqual([])
  })

  it('when skipping bad rows, lists them in file order and keeps every good row', async () => {
    const ws = newWs()
    // A duplicate id is found when its chunk is written, a bad grade as soon as it is read.
    const file = gradedFile(dir(), 2000, {
      600: 'c1;Again?;Ref.;Answer.;pass;fail;',
      650: 'c650;Q?;R.;A.;maybe;fail;',
      1700: 'c2;Again?;Ref.;Answer.;pass;fail;',
    })
    const r = await importFile(ws, { file, mapping: GRADED, skipBadRows: true })
    expect(r.skipped.map((s) => s.line)).toEqual([600, 650, 1700])
    expect(r.skipped[0]!.reason).toBe('field "case": duplicate item id "c1"')
    expect(r.items).toBe(1997)
    expect(datasetStats(ws.db, r.datasetId)).toEqual(recountDatasetStats(ws.db, r.datasetId))
    checkSearchIndex(ws)
  })
})
