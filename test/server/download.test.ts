import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { downloads, prepareBundleDownload, prepareDatasetDownload } from '../../src/main/downloads'
import { exportDataset } from '../../src/main/export/datasetExport'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('export downloads (browser mode)', () => {
  it('sends a small export as its data file, and a large one as a zip of the data and its card', async () => {
    const dir = tmp()
    const ws = Workspace.open(join(dir, 'w.factlab'))
    loadDemoIfEmpty(ws)
    const datasetId = (ws.db.prepare('SELECT id FROM datasets').get() as { id: number }).id
    await exportDataset(ws, { datasetId, format: 'csv', outDir: join(dir, 'direct') })
    const direct = readFileSync(join(dir, 'direct', 'data.csv'))

    const small = await prepareDatasetDownload(ws, { datasetId, format: 'csv' })
    expect(small).toMatchObject({
      zipped: false,
      fileName: 'Demo-WikiEval-style-data.csv',
      bytes: direct.length,
    })
    expect(readFileSync(downloads.get(small.downloadId)!.file).equals(direct)).toBe(true)

    // Any size over the limit is zipped; here the limit is 0 bytes.
    const large = await prepareDatasetDownload(ws, { datasetId, format: 'csv' }, 0)
    expect(large).toMatchObject({ zipped: true, fileName: 'Demo-WikiEval-style.zip' })
    const entries = unzipSync(readFileSync(downloads.get(large.downloadId)!.file))
    expect(Object.keys(entries).sort()).toEqual(['README.md', 'data.csv'])
    expect(Buffer.from(entries['data.csv']!).equals(direct)).toBe(true)

    // Served (or swept) once, the files are gone.
    const file = downloads.get(large.downloadId)!.file
    downloads.done(large.downloadId)
    expect(existsSync(file)).toBe(false)
    expect(downloads.get(large.downloadId)).toBeUndefined()
    downloads.clear()
    ws.close()
  })

  it('offers one annotator’s bundle as a download, zipped past the limit', async () => {
    const dir = tmp()
    const ws = Workspace.open(join(dir, 'w.factlab'))
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
