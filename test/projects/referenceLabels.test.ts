import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nextTarget } from '../../src/main/annotate/view'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { setControls } from '../../src/main/projects/controls'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { setPlan } from '../../src/main/projects/plan'
import { planProgress } from '../../src/main/projects/progress'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { testApps } from '../helpers/app'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const WIKIEVALFACTS = join(__dirname, '../fixtures/import/wikievalfacts.csv')

/**
 * WikiEvalFacts as released: 27 targets, 25 of them carrying the dataset's own labels, kept
 * under the source "wikievalfacts" (not a person), as the QA run imported it.
 */
async function imported() {
  const ws = Workspace.open(freshWorkspaceFile(join(tmp(), 'lead.factlab')))
  const r = await importFile(ws, { file: WIKIEVALFACTS })
  const labelledBySource = (
    ws.db
      .prepare(
        `SELECT l.target_id AS id FROM labels l JOIN annotators a ON a.id = l.annotator_id
         WHERE a.kind = 'source' AND l.verdict IS NOT NULL ORDER BY l.target_id`,
      )
      .all() as { id: number }[]
  ).map((t) => t.id)
  expect(labelledBySource).toHaveLength(25)
  return { ws, datasetId: r.datasetId, labelledBySource }
}

describe('reference labels imported with a dataset are not people', () => {
  it('a plan of k = 2 set right after import stands at 0 of 54 labels, and the queue still offers every target', async () => {
    const { ws, datasetId, labelledBySource } = await imported()
    setPlan(ws.db, { datasetId, k: 2, policy: 'open', annotators: [{ name: 'ana' }, { name: 'ben' }] })

    const d = projectDashboard(ws.db, datasetId)
    expect({ towards: d.labelsTowardsK, wanted: d.labelsWanted, complete: d.complete }).toEqual({
      towards: 0,
      wanted: 54,
      complete: 0,
    })
    expect(planProgress(ws.db, datasetId)).toMatchObject({ towards: 0, wanted: 54, complete: 0 })
    // The source is no row of the dashboard, no κ pair, and said to be left out.
    expect(d.annotators.map((a) => a.name)).toEqual(['ana', 'ben'])
    expect(d.pairwiseKappa.map((p) => `${p.a}·${p.b}`)).toEqual(['ana·ben'])
    expect(d.notCounted.sources).toEqual([{ name: 'wikievalfacts', labels: 25 }])

    // ana's queue starts at the first target, which the source labelled: it still needs two people.
    const ana = ensureAnnotator(ws.db, 'ana').id
    const first = nextTarget(ws.db, { datasetId, annotatorId: ana }).targetId
    expect(first).toBe(labelledBySource[0])
    ws.close()
  })

  it('people labelling after the source are within k; the source gets no control accuracy and sets no pace', async () => {
    const { ws, datasetId, labelledBySource } = await imported()
    setPlan(ws.db, { datasetId, k: 2, policy: 'open', annotators: [{ name: 'ana' }, { name: 'ben' }] })
    const [shared, control] = labelledBySource
    const source = (
      ws.db.prepare('SELECT verdict FROM labels WHERE target_id = ?').get(control!) as { verdict: string }
    ).verdict
    setControls(ws.db, datasetId, { fromGold: [], answers: [{ targetId: control!, verdict: source }] }, 'now')
    const ana = ensureAnnotator(ws.db, 'ana').id
    const ben = ensureAnnotator(ws.db, 'ben').id
    for (const who of [ana, ben])
      ws.labels.save({ targetId: shared!, annotatorId: who, verdict: 'true', seconds: 4 })
    ws.labels.save({ targetId: control!, annotatorId: ana, verdict: source === 'true' ? 'false' : 'true' })

    const d = projectDashboard(ws.db, datasetId)
    const row = (name: string) => d.annotators.find((a) => a.name === name)!
    // Two people on a target the source labelled first: it is complete and neither went past k.
    expect(d.complete).toBe(1)
    expect(d.labelsTowardsK).toBe(2)
    expect([row('ana').overK, row('ben').overK]).toEqual([0, 0])
    // Only ana answered the control (wrongly): the source, whose answer it is, is not scored.
    expect(d.annotators.map((a) => [a.name, a.controls.answered, a.controls.correct])).toEqual([
      ['ana', 1, 0],
      ['ben', 0, 0],
    ])
    // The pace is the people's: two labels placed this week, not the 25 imported ones.
    // Labelling began today: the rate is the day's two people's labels, not a week's.
    expect(d.labelsPerDay).toBeCloseTo(2)
    ws.close()
  })

  it('a plan may not name the source, and k is measured against people only', async () => {
    const { ws, datasetId } = await imported()
    expect(() =>
      setPlan(ws.db, {
        datasetId,
        k: 1,
        policy: 'fixed',
        annotators: [{ name: 'ana' }, { name: 'wikievalfacts' }],
      }),
    ).toThrow(
      /“wikievalfacts” is a dataset's reference labels \(a label source\), not a person.*Nothing was changed/,
    )
    // One person and the source in the workspace: k = 2 with nobody named cannot be met.
    ensureAnnotator(ws.db, 'ana')
    expect(() => setPlan(ws.db, { datasetId, k: 2, policy: 'open' })).toThrow(
      /needs at least 2 annotators, but the plan has 1/,
    )
    ws.close()
  })
})

describe("controls from the dataset's own answers", () => {
  const app = testApps()

  it('with no gold, --from-gold takes the reference labels as known answers and skips targets the sources disagree on', async () => {
    const { ws, datasetId, labelledBySource } = await imported()
    // A second source (another release of the labels) disagrees on one target and agrees on one.
    const other = Number(
      ws.db
        .prepare("INSERT INTO annotators (name, kind, created_at) VALUES ('second', 'source', 'now')")
        .run().lastInsertRowid,
    )
    const verdictOf = (t: number) =>
      (ws.db.prepare('SELECT verdict FROM labels WHERE target_id = ?').get(t) as { verdict: string }).verdict
    const [split, agreed] = labelledBySource
    ws.labels.save({
      targetId: split!,
      annotatorId: other,
      verdict: verdictOf(split!) === 'true' ? 'false' : 'true',
    })
    ws.labels.save({ targetId: agreed!, annotatorId: other, verdict: verdictOf(agreed!) })
    const answers = new Map(labelledBySource.map((t) => [t, verdictOf(t)]))
    const file = ws.file
    ws.close()
    const lead = app(file)
    const r = await lead.value<{ added: number; controls: number; skipped: number }>('projects.setControls', {
      datasetId,
      allGold: true,
      sample: { share: 1 },
    })
    expect(r).toMatchObject({ added: 24, controls: 24, skipped: 1, toLabel: 3 })
    const controls = await lead.value<{ targetId: number; verdict: string }[]>('projects.controls', {
      datasetId,
    })
    expect(controls.map((c) => c.targetId)).not.toContain(split)
    for (const c of controls) expect(c.verdict).toBe(answers.get(c.targetId))
  })
})
