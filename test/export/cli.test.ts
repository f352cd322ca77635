import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, writeReleaseCsv, wsFile } from './seed'

const tmp = tmpDirs()

describe('factlab CLI: export, bundle and merge', () => {
  it('exports a dataset with its card, and exits 1 or 2 on bad input or usage', async () => {
    const dir = tmp()
    const { ws } = seedWorkspace(wsFile(dir))
    ws.close()
    const file = wsFile(dir)
    const outDir = join(dir, 'out')
    const exported = await cli([
      'export',
      '--workspace',
      file,
      '--dataset',
      'wikievalfacts',
      '--format',
      'parquet',
      '--out',
      outDir,
      '--json',
    ])
    expect(exported.code).toBe(0)
    expect(JSON.parse(exported.out).files).toEqual([join(outDir, 'data.parquet'), join(outDir, 'README.md')])
    expect(existsSync(join(outDir, 'README.md'))).toBe(true)
    // The app's own export call: a folder that already holds files is never written over.
    const card = readFileSync(join(outDir, 'README.md'), 'utf8')
    const again = await cli([
      'export',
      '--workspace',
      file,
      '--dataset',
      'wikievalfacts',
      '--format',
      'csv',
      '--out',
      outDir,
    ])
    expect(again.code).toBe(1)
    expect(again.err).toContain('already holds files')
    expect(readFileSync(join(outDir, 'README.md'), 'utf8')).toBe(card)
    expect(existsSync(join(outDir, 'data.csv'))).toBe(false)

    const unknown = await cli([
      'export',
      '--workspace',
      file,
      '--dataset',
      'nope',
      '--format',
      'csv',
      '--out',
      outDir,
    ])
    expect(unknown.code).toBe(1)
    expect(unknown.err).toContain('No dataset named "nope" in this workspace; it has "wikievalfacts" (#1)')
    const xlsx = ['--dataset', 'wikievalfacts', '--format', 'xlsx', '--out', outDir]
    expect((await cli(['export', '--workspace', file, ...xlsx])).code).toBe(2)
    expect((await cli(['export', '--workspace', file, '--format', 'csv', '--out', outDir])).code).toBe(2)
    const noRun = await cli([
      'export-verdicts',
      '--workspace',
      file,
      '--run',
      '42',
      '--out',
      join(dir, 'v.jsonl'),
    ])
    expect(noRun.code).toBe(1)
    expect(noRun.err).toContain('No run with id 42')
  })

  it('bundles labels on one workspace and merges them into another', async () => {
    const dir = tmp()
    const release = join(dir, 'release.csv')
    writeReleaseCsv(release)
    for (const name of ['a.factlab', 'b.factlab']) {
      const ws = Workspace.open(wsFile(dir, name))
      await importFile(ws, { file: release, preset: 'wikievalfacts', datasetName: 'wef' })
      if (name === 'a.factlab') {
        const dee = ensureAnnotator(ws.db, 'Dee')
        const t = ws.db.prepare('SELECT MIN(id) AS id FROM targets').get() as { id: number }
        ws.labels.save({ targetId: t.id, annotatorId: dee.id, verdict: 'false' })
      }
      ws.close()
    }
    const bundle = join(dir, 'dee.jsonl')
    const a = wsFile(dir, 'a.factlab')
    const b = wsFile(dir, 'b.factlab')
    const bundled = await cli([
      'bundle',
      '--workspace',
      a,
      '--dataset',
      'wef',
      '--annotator',
      'Dee',
      '--out',
      bundle,
    ])
    expect(bundled.code).toBe(0)
    expect(bundled.out).toContain('Wrote 1 label ')
    const merged = await cli(['merge', bundle, '--workspace', b, '--json'])
    expect(merged.code).toBe(0)
    expect(JSON.parse(merged.out)).toEqual({
      dataset: 'wef',
      annotator: 'Dee',
      added: 1,
      updated: 0,
      unchanged: 0,
      kept_local: 0,
      earlier_versions: 0,
      recreated_versions: 0,
      recreated: [],
    })
    const junk = join(dir, 'junk.jsonl')
    writeFileSync(junk, 'hello\n')
    const notBundle = await cli(['merge', junk, '--workspace', b])
    expect(notBundle.code).toBe(1)
    expect(notBundle.err).toContain('is not a FactLab annotation bundle')
    const nobody = ['--dataset', 'wef', '--annotator', 'Nobody', '--out', bundle]
    expect((await cli(['bundle', '--workspace', a, ...nobody])).code).toBe(1)
    expect((await cli(['merge', '--workspace', b])).code).toBe(2)
  })
})
