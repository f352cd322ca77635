import { existsSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { downloads, prepareBundleDownload, prepareDatasetDownload } from '../../src/main/downloads'
import { exportDataset } from '../../src/main/export/datasetExport'
import { importFile } from '../../src/main/import'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { MODELS, SETTING } from '../helpers/refcheckerRelease'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('export downloads (browser mode)', () => {
  it('sends every file the export writes in one zip: the data file and its dataset card', async () => {
    const dir = tmp()
    const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
    loadDemoIfEmpty(ws)
    const datasetId = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    await exportDataset(ws, { datasetId, format: 'csv', outDir: join(dir, 'direct') })
    const direct = readFileSync(join(dir, 'direct', 'data.csv'))

    const dl = await prepareDatasetDownload(ws, { datasetId, format: 'csv' })
    expect(dl).toMatchObject({
      zipped: true,
      fileName: 'Demo-WikiEval-style-csv.zip',
      files: ['data.csv', 'README.md'],
    })
    const entries = unzipSync(readFileSync(downloads.get(dl.downloadId)!.file))
    expect(Object.keys(entries).sort()).toEqual(['README.md', 'data.csv'])
    expect(Buffer.from(entries['data.csv']!).equals(direct)).toBe(true)

    // Served (or swept) once, the files are gone.
    const file = downloads.get(dl.downloadId)!.file
    downloads.done(dl.downloadId)
    expect(existsSync(file)).toBe(false)
    expect(downloads.get(dl.downloadId)).toBeUndefined()
    downloads.clear()
    ws.close()
  })

  it('a RefChecker release download holds all the files the CLI writes, in their folders', async () => {
    const dir = tmp()
    const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
    const r = await importFile(ws, { file: SETTING })
    const cliDir = join(dir, 'cli')
    const written = await exportDataset(ws, {
      datasetId: r.datasetId,
      format: 'refchecker-json',
      outDir: cliDir,
    })
    const names = written.files.map((f) => relative(cliDir, f).split(sep).join('/')).sort()
    expect(names).toHaveLength(MODELS.length + 1)
    expect(names).toContain('README.md')

    const dl = await prepareDatasetDownload(ws, { datasetId: r.datasetId, format: 'refchecker-json' })
    expect(dl.zipped).toBe(true)
    // Dataset and format, as the CLI's export folder is named: two formats side by side differ.
    expect(dl.fileName).toBe('zero_context-refchecker-json.zip')
    const other = await prepareDatasetDownload(ws, { datasetId: r.datasetId, format: 'jsonl' }, 0)
    expect(other.fileName).toBe('zero_context-jsonl.zip')
    expect([...dl.files].sort()).toEqual(names)
    const entries = unzipSync(readFileSync(downloads.get(dl.downloadId)!.file))
    expect(Object.keys(entries).sort()).toEqual(names)
    for (const n of names)
      expect(Buffer.from(entries[n]!).toString('utf8'), n).toBe(readFileSync(join(cliDir, n), 'utf8'))
    downloads.clear()
    ws.close()
  })

  it('offers one annotator’s bundle as a download, zipped past the limit', async () => {
    const dir = tmp()
    const ws = Workspace.open(freshWorkspaceFile(join(dir, 'w.factlab')))
    loadDemoIfEmpty(ws)
    const datasetId = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    const alex = (ws.db.prepare("SELECT id FROM annotators WHERE name = 'alex'").get() as { id: number }).id
    const plain = await prepareBundleDownload(ws, { datasetId, annotatorId: alex })
    expect(plain).toMatchObject({ zipped: false, fileName: 'Demo-WikiEval-style-alex.bundle.jsonl' })
    const lines = readFileSync(downloads.get(plain.downloadId)!.file, 'utf8').trim().split('\n')
    expect(lines.length).toBeGreaterThan(100)
    const zipped = await prepareBundleDownload(ws, { datasetId, annotatorId: alex }, 0)
    const entries = unzipSync(readFileSync(downloads.get(zipped.downloadId)!.file))
    expect(
      Buffer.from(entries['Demo-WikiEval-style-alex.bundle.jsonl']!).toString('utf8').trim().split('\n'),
    ).toHaveLength(lines.length)
    downloads.clear()
    ws.close()
  })
})
