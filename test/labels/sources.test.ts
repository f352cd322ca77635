import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget, openAnnotateView } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { importFile } from '../../src/main/import'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const WIKIEVALFACTS = join(__dirname, '../fixtures/import/wikievalfacts.csv')

/** WikiEvalFacts as released: its own labels are kept under the source "wikievalfacts". */
async function withSource(dir = tmp()) {
  const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
  const r = await importFile(ws, { file: WIKIEVALFACTS, datasetName: 'wiki' })
  const source = ws.db.prepare("SELECT id, name FROM annotators WHERE kind = 'source'").get() as {
    id: number
    name: string
  }
  expect(source.name).toBe('wikievalfacts')
  return { ws, datasetId: r.datasetId, source }
}

/** Every label and history row, as it stands: a refusal must leave these exactly. */
function allLabels(ws: Workspace): unknown[] {
  return [
    ...ws.db.prepare('SELECT * FROM labels ORDER BY id').all(),
    ...ws.db.prepare('SELECT * FROM label_history ORDER BY id').all(),
  ]
}

describe('a source is reached by no other path', () => {
  it("a bundle under a source's name is refused whole, naming the source", async () => {
    const lead = await withSource()
    const laptop = await withSource()
    // On the laptop a person took the source's name in other letters, and labelled.
    const impostor = ensureAnnotator(laptop.ws.db, 'WikiEvalFacts')
    expect(impostor.kind).toBe('person')
    const targets = laptop.ws.db
      .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id LIMIT 3')
      .all(laptop.datasetId) as { id: number }[]
    for (const t of targets)
      laptop.ws.labels.save({ targetId: t.id, annotatorId: impostor.id, verdict: 'false' })
    const bundle = join(tmp(), 'b.jsonl')
    await exportBundle(laptop.ws, { datasetId: laptop.datasetId, annotatorId: impostor.id, out: bundle })
    laptop.ws.close()
    const before = allLabels(lead.ws)
    await expect(mergeBundle(lead.ws, bundle)).rejects.toThrow(
      /labels under “WikiEvalFacts”, but “wikievalfacts” is a dataset's reference labels \(a label source\) here.*Nothing was merged/,
    )
    expect(allLabels(lead.ws)).toEqual(before)
    expect(
      lead.ws.db.prepare("SELECT COUNT(*) AS n FROM annotators WHERE name = 'WikiEvalFacts'").get(),
    ).toEqual({
      n: 0,
    })
    lead.ws.close()
  })

  it('a mapping that gives a column as the labels of a source imports nothing', async () => {
    const { ws } = await withSource()
    const file = join(tmp(), 'mine.csv')
    writeFileSync(file, 'ref,answer,human\nThe sky is blue.,Blue.,true\nGrass is green.,Red.,false\n')
    const datasets = () => ws.db.prepare('SELECT COUNT(*) AS n FROM datasets').get()
    const before = { datasets: datasets(), labels: allLabels(ws) }
    await expect(
      importFile(ws, {
        file,
        datasetName: 'mine',
        mapping: {
          reference: 'ref',
          candidates: [{ variant: 'a', column: 'answer' }],
          wholeUnits: true,
          labels: [{ column: 'human', annotator: 'wikievalfacts' }],
        },
      }),
    ).rejects.toThrow(
      /column "human" as the labels of “wikievalfacts”, but “wikievalfacts” is a dataset's reference labels.*Nothing was imported/,
    )
    expect({ datasets: datasets(), labels: allLabels(ws) }).toEqual(before)
    // The same column under a person's name imports.
    const ok = await importFile(ws, {
      file,
      datasetName: 'mine',
      mapping: {
        reference: 'ref',
        candidates: [{ variant: 'a', column: 'answer' }],
        wholeUnits: true,
        labels: [{ column: 'human', annotator: 'ana' }],
      },
    })
    expect(ok.labels).toBe(2)
    ws.close()
  })

  it('Annotate does not open as a source, nor does its queue answer', async () => {
    const { ws, datasetId, source } = await withSource()
    expect(() => openAnnotateView(ws.db, { datasetId, annotatorId: source.id, blind: false })).toThrow(
      /“wikievalfacts” is a dataset's reference labels \(a label source\), not a person/,
    )
    expect(() => nextTarget(ws.db, { datasetId, annotatorId: source.id })).toThrow(/a label source/)
    const ana = ensureAnnotator(ws.db, 'ana')
    expect(openAnnotateView(ws.db, { datasetId, annotatorId: ana.id, blind: false }).item.extId).toBeTruthy()
    ws.close()
  })

  it('assign --annotators naming a source is refused and the plan stays as it was', async () => {
    const { ws } = await withSource()
    const file = ws.file
    ws.close()
    const r = await cli([
      'assign',
      '--workspace',
      file,
      '--dataset',
      'wiki',
      '--k',
      '1',
      '--annotators',
      'ana,WikiEvalFacts',
    ])
    expect(r.code).not.toBe(0)
    expect(r.err).toMatch(
      /“wikievalfacts” is a dataset's reference labels \(a label source\), not a person.*Nothing was changed/,
    )
    const shown = await cli(['assign', '--workspace', file, '--dataset', 'wiki', '--json'])
    expect(JSON.parse(shown.out)).toMatchObject({ planned: false, annotators: [] })
    const after = Workspace.open(file)
    expect(
      after.db.prepare("SELECT COUNT(*) AS n FROM annotators WHERE name IN ('ana', 'WikiEvalFacts')").get(),
    ).toEqual({
      n: 0,
    })
    after.close()
  })
})
