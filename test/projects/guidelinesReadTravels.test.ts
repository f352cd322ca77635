import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { exportBundle, mergeBundle } from '../../src/main/export'
import { markGuidelinesRead, mustReadGuidelines, saveGuidelines } from '../../src/main/guidelines/guidelines'
import { projectDashboard } from '../../src/main/projects/dashboard'
import { exportPackage } from '../../src/main/projects/packageExport'
import { openPackage } from '../../src/main/projects/packageOpen'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './seed'

const tmp = tmpDirs()

const readOf = (ws: Workspace, datasetId: number, name: string) =>
  projectDashboard(ws.db, datasetId).annotators.find((a) => a.name === name)?.guidelinesRead?.version ?? null

/** Opens a package on a fresh laptop; the laptop's workspace, dataset and annotator. */
function laptop(dir: string, pkg: string) {
  const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
  openPackage(ws, pkg)
  const ds = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
  return { ws, ds, me: ensureAnnotator(ws.db, 'ann0').id }
}

describe('which guidelines version an annotator read', () => {
  it("travels back with the bundle to the lead's dashboard, and out again with her next package", async () => {
    const dirs = { lead: tmp(), one: tmp(), two: tmp() }
    const lead = seedProject(dirs.lead, { items: 2, variants: 1, facts: 2, annotators: 1 })
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version one: be strict.')
    const first = join(dirs.lead, 'first.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: first })

    // On her laptop she reads the guidelines, labels, and sends her bundle back.
    const one = laptop(dirs.one, first)
    expect(mustReadGuidelines(one.ws.db, one.ds, one.me)).toBe(true)
    markGuidelinesRead(one.ws.db, one.ds, one.me, 1)
    const target = (one.ws.db.prepare('SELECT id FROM targets ORDER BY id LIMIT 1').get() as { id: number })
      .id
    one.ws.labels.save({ targetId: target, annotatorId: one.me, verdict: 'true' })
    const bundle = join(dirs.one, 'b.jsonl')
    await exportBundle(one.ws, { datasetId: one.ds, annotatorId: one.me, out: bundle })
    one.ws.close()

    expect(readOf(lead.ws, lead.ds.id, 'ann0')).toBeNull()
    await mergeBundle(lead.ws, bundle)
    expect(readOf(lead.ws, lead.ds.id, 'ann0')).toBe(1)

    // A new package (a new laptop) knows she read this version: she is not asked again.
    const second = join(dirs.lead, 'second.jsonl')
    exportPackage(lead.ws, { datasetId: lead.ds.id, annotator: 'ann0', out: second })
    const two = laptop(dirs.two, second)
    expect(mustReadGuidelines(two.ws.db, two.ds, two.me)).toBe(false)
    two.ws.close()

    // The lead publishes version 2: the dashboard still says she read version 1, and merging
    // the old bundle again takes nothing back.
    saveGuidelines(lead.ws.db, lead.ds.id, 'Version two: be lenient.')
    await mergeBundle(lead.ws, bundle)
    expect(readOf(lead.ws, lead.ds.id, 'ann0')).toBe(1)
    lead.ws.close()
  })
})
