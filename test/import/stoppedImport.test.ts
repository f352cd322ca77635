import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { createHiddenDataset, stopFilling } from '../../src/main/import/hidden'
import { stoppedImports } from '../../src/main/import/stoppedImports'
import { openWorkspace } from '../../src/main/store/connection'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { fillDiskAfterFirstRows, hiddenItems } from '../helpers/fullDisk'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const apps = testApps()
const FIXTURE = join(__dirname, '..', 'fixtures', 'import', 'wikievalfacts.csv')
const IDS_FIXTURE = join(__dirname, '..', 'fixtures', 'import', 'wikievalfacts-ids.jsonl')

afterEach(() => {
  vi.restoreAllMocks()
})

describe('an import the disk stopped half-way', () => {
  it('is listed as incomplete with the items it wrote, can be withdrawn once there is room, and frees its name', async () => {
    const file = join(tmp(), 'team.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'labelled'])).code).toBe(0)
    fillDiskAfterFirstRows()
    const failed = await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'second'])
    // Try again later, as every other write on a full disk; what it kept is named, with the way out.
    expect(failed.code).toBe(75)
    const written = hiddenItems(file)
    expect(written).toBeGreaterThan(0)
    expect(failed.err).toContain(
      `The ${written} item${written === 1 ? '' : 's'} it had written are kept, hidden, as the incomplete import “second”`,
    )
    expect(failed.err).toContain('factlab withdraw-import "second"` when there is room')
    // Nothing else changed: the first dataset is as it was.
    const before = await cli(['datasets', '--workspace', file, '--json'])
    expect((JSON.parse(before.out) as { name: string; items: number }[]).map((d) => d.name)).toEqual([
      'labelled',
    ])

    // Still full. The CLI's list says so after the datasets, with the command that withdraws it.
    const listed = await cli(['datasets', '--workspace', file])
    expect(listed.code, listed.err).toBe(0)
    expect(listed.out).toMatch(/^#1 {2}labelled/)
    expect(listed.out).toContain(
      `Incomplete import “second”: it stopped after ${written} item${written === 1 ? '' : 's'} of ${FIXTURE}`,
    )
    expect(listed.out).toContain('factlab withdraw-import "second"')
    // A CSV's rows cannot be counted without reading it: the total is said to be unknown.
    expect(listed.out).toContain('how many items the file holds is not known')
    // --json stays the list of datasets; the incomplete import is said on stderr.
    const json = await cli(['datasets', '--workspace', file, '--json'])
    expect((JSON.parse(json.out) as { name: string }[]).map((d) => d.name)).toEqual(['labelled'])
    expect(json.err).toContain('Incomplete import “second”')

    // The app's Datasets view asks the same; withdrawing on a still-full disk changes nothing.
    const app = apps(file)
    const stopped = await app.value<{ datasetId: number; name: string; items: number }[]>(
      'datasets.stoppedImports',
      {},
    )
    expect(stopped).toMatchObject([{ name: 'second', items: written, file: FIXTURE }])
    const refused = await app.call('datasets.withdrawImport', { datasetId: stopped[0]!.datasetId })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error.code).toBe('unavailable')
    expect(hiddenItems(file)).toBe(written)
    app.ctx.close()

    // Space freed: withdrawn from the CLI, the name is free for the file again.
    vi.restoreAllMocks()
    const withdrawn = await cli(['withdraw-import', 'second', '--workspace', file])
    expect(withdrawn.code, withdrawn.err).toBe(0)
    expect(withdrawn.out).toContain(`Withdrew the incomplete import "second" (${written} item`)
    expect(hiddenItems(file)).toBe(0)
    expect((await cli(['datasets', '--workspace', file])).out).not.toContain('Incomplete import')
    expect((await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'second'])).code).toBe(0)
    const again = await cli(['withdraw-import', 'second', '--workspace', file])
    expect(again.code).toBe(1)
    expect(again.err).toContain('No stopped import named "second"')
  })

  it("stops the app's import call the same way: unavailable (try again later), with what it kept named", async () => {
    const file = join(tmp(), 'team.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', file, '--dataset', 'labelled'])).code).toBe(0)
    const app = apps(file)
    fillDiskAfterFirstRows()
    const r = await app.call('datasets.import', { source: { path: FIXTURE }, datasetName: 'second' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe('unavailable')
    expect(r.error.message).toContain('the import stopped and nothing was imported')
    expect(r.error.message).toContain('as the incomplete import “second”')
    // Through `factlab call` the same call exits 75, as `factlab import` does.
    app.ctx.close()
    const called = await cli([
      'call',
      'datasets.import',
      JSON.stringify({ source: { path: FIXTURE }, datasetName: 'third' }),
      '--workspace',
      file,
    ])
    expect(called.code, called.err).toBe(75)
  })

  it('says how far it got of the items the file holds, when the file says so as the import starts', async () => {
    const dir = tmp()
    const file = join(dir, 'team.factlab')
    const data = join(dir, 'ten.jsonl')
    // Ten items, one per line, with a blank line and a missing final newline: blank lines are no items.
    const lines = readFileSync(IDS_FIXTURE, 'utf8').trim().split('\n')
    expect(lines).toHaveLength(10)
    writeFileSync(data, `${lines.slice(0, 5).join('\n')}\n\n${lines.slice(5).join('\n')}`)
    const ws = Workspace.open(file)
    fillDiskAfterFirstRows()
    await expect(importFile(ws, { file: data, datasetName: 'ten', chunkItems: 3 })).rejects.toThrow(
      'The 3 items it had written are kept, hidden, as the incomplete import “ten”',
    )
    expect(stoppedImports(ws.db)).toMatchObject([{ name: 'ten', items: 3, itemsInFile: 10, file: data }])
    ws.close()
    const listed = await cli(['datasets', '--workspace', file])
    expect(listed.out).toContain(`Incomplete import “ten”: it stopped after 3 of the 10 items in ${data} (`)
    expect(listed.out).not.toContain('not known')
  })

  it('is not an import still running: one this process is filling is not listed until it stops', () => {
    const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')))
    try {
      const id = createHiddenDataset(db, { name: 'arriving', labelSchema: FAAF_SCHEMA })
      expect(stoppedImports(db)).toEqual([])
      stopFilling(id)
      expect(stoppedImports(db).map((s) => s.name)).toEqual(['arriving'])
    } finally {
      db.close()
    }
  })
})
