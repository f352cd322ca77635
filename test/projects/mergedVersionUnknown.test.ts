import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { saveGuidelines } from '../../src/main/guidelines/guidelines'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

describe('a merged label given with no guidelines', () => {
  it("keeps its version unknown instead of taking the lead's version she never saw", async () => {
    const dirs = { lead: tmp(), laptop: tmp() }
    const lead = seedProject(dirs.lead, { items: 2, variants: 1, facts: 2, annotators: 1 })
    const pkg = join(dirs.lead, 'p.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: pkg })

    // On her laptop there are no guidelines yet: her label carries no version.
    const ws = Workspace.open(freshWorkspaceFile(join(dirs.laptop, 'w.factlab')))
    openPackage(ws, pkg)
    const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const me = ensureAnnotator(ws.db, 'ann0').id
    const target = (ws.db.prepare('SELECT id FROM targets ORDER BY id LIMIT 1').get() as { id: number }).id
    ws.labels.save({ targetId: target, annotatorId: me, verdict: 'true' })
    const bundle = join(dirs.laptop, 'b.jsonl')
    await exportBundle(ws, { datasetId: ds, annotatorId: me, out: bundle })
    ws.close()

    // Meanwhile the lead wrote version 1, then merges her bundle.
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version one: be strict.')
    const report = await mergeBundle(lead.ws, bundle)
    expect(report.added).toBe(1)
    const ann0 = ensureAnnotator(lead.ws.db, 'ann0').id
    const versions = (table: string) =>
      lead.ws.db
        .prepare(`SELECT guidelines_version FROM ${table} WHERE annotator_id = ?`)
        .pluck()
        .all(ann0) as (number | null)[]
    expect(versions('labels')).toEqual([null])
    expect(versions('label_history')).toEqual([null])
    // A label the lead gives now is still stamped with the version on screen.
    const other = (
      lead.ws.db.prepare('SELECT id FROM targets ORDER BY id DESC LIMIT 1').get() as { id: number }
    ).id
    const leadId = ensureAnnotator(lead.ws.db, 'lead').id
    lead.ws.labels.save({ targetId: other, annotatorId: leadId, verdict: 'false' })
    expect(
      lead.ws.db.prepare('SELECT guidelines_version FROM labels WHERE annotator_id = ?').pluck().get(leadId),
    ).toBe(1)
    // History stays append-only: a stamped row cannot be changed.
    expect(() => lead.ws.db.prepare('UPDATE label_history SET guidelines_version = 2').run()).toThrow(
      /append-only/,
    )
    lead.ws.close()
  })

  it('keeps every history line of such a label unknown, end to end: written, merged, written again, merged again', async () => {
    const dirs = { lead: tmp(), laptop: tmp(), archive: tmp() }
    const lead = seedProject(dirs.lead, { items: 1, variants: 1, facts: 2, annotators: 1 })
    const pkg = join(dirs.lead, 'p.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: pkg })

    // On her laptop, with no guidelines, she changes her mind once: two states, neither versioned.
    const ws = Workspace.open(join(dirs.laptop, 'w.factlab'))
    openPackage(ws, pkg)
    const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const me = ensureAnnotator(ws.db, 'ann0').id
    const target = (ws.db.prepare('SELECT id FROM targets ORDER BY id LIMIT 1').get() as { id: number }).id
    ws.labels.save({ targetId: target, annotatorId: me, verdict: 'true' })
    ws.labels.save({ targetId: target, annotatorId: me, verdict: 'false' })
    const first = join(dirs.laptop, 'b.jsonl')
    await exportBundle(ws, { datasetId: ds, annotatorId: me, out: first })
    ws.close()
    const historyVersions = (file: string) =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .flatMap((l) => (JSON.parse(l) as { history: { guidelinesVersion?: unknown }[] }).history)
        .map((h) => h.guidelinesVersion)
    expect(historyVersions(first)).toEqual([null, null])

    // The lead has version 1 by now: both merged states stay unknown, the earlier one too.
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version one: be strict.')
    await mergeBundle(lead.ws, first)
    const versions = (w: Workspace) =>
      w.db
        .prepare(
          `SELECT h.verdict, h.guidelines_version AS v FROM label_history h
           JOIN annotators a ON a.id = h.annotator_id WHERE a.name = 'ann0' ORDER BY h.id`,
        )
        .all()
    expect(versions(lead.ws)).toEqual([
      { verdict: 'true', v: null },
      { verdict: 'false', v: null },
    ])

    // Written again by the lead, merged into a workspace at version 2: still unknown.
    const again = join(dirs.lead, 'again.jsonl')
    await exportBundle(lead.ws, {
      datasetId: lead.ds.id,
      annotatorId: ensureAnnotator(lead.ws.db, 'ann0').id,
      out: again,
    })
    expect(historyVersions(again)).toEqual([null, null])
    lead.ws.close()
    const archive = seedProject(dirs.archive, { items: 1, variants: 1, facts: 2, annotators: 0 })
    saveGuidelines(archive.ws.db, archive.ds.id, 'Version one.')
    saveGuidelines(archive.ws.db, archive.ds.id, 'Version two.')
    await mergeBundle(archive.ws, again)
    expect(versions(archive.ws)).toEqual([
      { verdict: 'true', v: null },
      { verdict: 'false', v: null },
    ])
    archive.ws.close()
  })
})
