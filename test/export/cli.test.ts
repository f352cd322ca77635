import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { runCli } from '../../src/main/cli/index'
import { importFile } from '../../src/main/import'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, writeReleaseCsv, wsFile } from './seed'

const tmp = tmpDirs()
let out: string[] = []
let err: string[] = []

beforeEach(() => {
  out = []
  err = []
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out.push(String(s))
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err.push(String(s))
    return true
  })
})
afterEach(() => vi.restoreAllMocks())

describe('factlab CLI: export, bundle and merge', () => {
  it('exports a dataset with its card, and exits 1 or 2 on bad input or usage', async () => {
    const dir = tmp()
    const { ws } = seedWorkspace(wsFile(dir))
    ws.close()
    const file = wsFile(dir)
    const outDir = join(dir, 'out')
    expect(
      await runCli([
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
      ]),
    ).toBe(0)
    expect(JSON.parse(out.join('')).files).toEqual([join(outDir, 'data.parquet'), join(outDir, 'README.md')])
    expect(existsSync(join(outDir, 'README.md'))).toBe(true)

    expect(
      await runCli(['export', '--workspace', file, '--dataset', 'nope', '--format', 'csv', '--out', outDir]),
    ).toBe(1)
    expect(err.join('')).toContain('No dataset named "nope" in this workspace (it has "wikievalfacts")')
    expect(
      await runCli([
        'export',
        '--workspace',
        file,
        '--dataset',
        'wikievalfacts',
        '--format',
        'xlsx',
        '--out',
        outDir,
      ]),
    ).toBe(2)
    expect(await runCli(['export', '--workspace', file, '--format', 'csv', '--out', outDir])).toBe(2)
    expect(
      await runCli(['export-verdicts', '--workspace', file, '--run', '42', '--out', join(dir, 'v.jsonl')]),
    ).toBe(1)
    expect(err.join('')).toContain('No run with id 42')
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
    expect(
      await runCli(['bundle', '--workspace', a, '--dataset', 'wef', '--annotator', 'Dee', '--out', bundle]),
    ).toBe(0)
    expect(out.join('')).toContain('Wrote 1 labels')
    out = []
    expect(await runCli(['merge', bundle, '--workspace', b, '--json'])).toBe(0)
    expect(JSON.parse(out.join(''))).toEqual({
      dataset: 'wef',
      annotator: 'Dee',
      added: 1,
      updated: 0,
      unchanged: 0,
      kept_local: 0,
    })
    const junk = join(dir, 'junk.jsonl')
    writeFileSync(junk, 'hello\n')
    expect(await runCli(['merge', junk, '--workspace', b])).toBe(1)
    expect(err.join('')).toContain('is not a FactLab annotation bundle')
    expect(
      await runCli([
        'bundle',
        '--workspace',
        a,
        '--dataset',
        'wef',
        '--annotator',
        'Nobody',
        '--out',
        bundle,
      ]),
    ).toBe(1)
    expect(await runCli(['merge', '--workspace', b])).toBe(2)
  })
})
