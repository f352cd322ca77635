import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative, sep } from 'node:path'
import { Zip, ZipDeflate } from 'fflate'
import type { ExportFormatName } from '../../shared/contract/exports'
import type { Workspace } from '../app/workspace'
import { exportBundle } from '../export/bundle'
import { exportDataset } from '../export/datasetExport'
import type { ExportProgress } from '../export/exportProgress'
import { exportVerdicts } from '../export/verdictsExport'
import { getDataset } from '../store/repos/datasets'

/*
 * Browser mode's exports: the person's browser is not on the server's disk, so an export is
 * written to a private temporary folder and streamed to the browser as a download. An export of
 * several files (a data file and its dataset card, a release layout's files, responses) goes as
 * one zip holding every file the CLI writes, in the same folders; a lone file as itself, byte for
 * byte, zipped only when large. Each download is served once, then removed; one never fetched
 * goes after an hour, or when the server stops.
 */

export const ZIP_OVER_BYTES = 20 * 1024 ** 2
const KEEP_MS = 60 * 60 * 1000

export interface Download {
  id: string
  file: string
  fileName: string
  mime: string
  bytes: number
  dir: string
  at: number
}

const MIME: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet',
  '.zip': 'application/zip',
  '.md': 'text/markdown; charset=utf-8',
}

function mimeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.'))
  return MIME[ext] ?? 'application/octet-stream'
}

class Downloads {
  private readonly entries = new Map<string, Download>()

  add(d: Omit<Download, 'id' | 'at'>): Download {
    const entry = { ...d, id: randomBytes(16).toString('hex'), at: Date.now() }
    this.entries.set(entry.id, entry)
    return entry
  }

  get(id: string): Download | undefined {
    return this.entries.get(id)
  }

  /** Forgets a download and removes its files (after it was served). */
  done(id: string): void {
    const d = this.entries.get(id)
    if (!d) return
    this.entries.delete(id)
    rmSync(d.dir, { recursive: true, force: true })
  }

  sweep(now = Date.now()): void {
    for (const d of [...this.entries.values()]) if (now - d.at > KEEP_MS) this.done(d.id)
  }

  clear(): void {
    for (const id of [...this.entries.keys()]) this.done(id)
  }
}

export const downloads = new Downloads()

function slug(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'dataset'
}

/** The folder an export is written to, as the README's `factlab export … --out` example names it. */
export function exportFolderName(datasetName: string, format: string): string {
  return `${slug(datasetName)}-${format}`
}

/**
 * Writes `files` into one zip at `out`, streaming each file through the compressor. Each entry is
 * named by its path under `root` (a release layout's `<setting>/<file>`), or by its own name.
 */
export async function zipFiles(files: readonly string[], out: string, root?: string): Promise<void> {
  const sink = createWriteStream(out)
  const finished = new Promise<void>((ok, fail) => {
    sink.on('finish', ok)
    sink.on('error', fail)
  })
  let failure: Error | null = null
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error
    else sink.write(chunk)
    if (final || error) sink.end()
  })
  for (const f of files) {
    const name = root === undefined ? basename(f) : relative(root, f).split(sep).join('/')
    const entry = new ZipDeflate(name, { level: 6 })
    zip.add(entry)
    for await (const chunk of createReadStream(f)) entry.push(chunk as Uint8Array)
    entry.push(new Uint8Array(0), true)
  }
  zip.end()
  await finished
  if (failure) throw failure
}

/** Registers one written file for download: as it is, or zipped when larger than `zipOver`. */
async function offer(
  dir: string,
  file: string,
  fileName: string,
  zipOver: number,
): Promise<{ downloadId: string; fileName: string; bytes: number; zipped: boolean }> {
  const size = statSync(file).size
  if (size <= zipOver) {
    const d = downloads.add({ file, fileName, mime: mimeOf(file), bytes: size, dir })
    return { downloadId: d.id, fileName, bytes: size, zipped: false }
  }
  const zip = join(dir, `${fileName.replace(/\.[^.]+$/, '')}.zip`)
  await zipFiles([file], zip)
  const d = downloads.add({
    file: zip,
    fileName: basename(zip),
    mime: mimeOf(zip),
    bytes: statSync(zip).size,
    dir,
  })
  return { downloadId: d.id, fileName: d.fileName, bytes: d.bytes, zipped: true }
}

/** One temporary folder per download, removed again if writing it fails. */
async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'factlab-download-'))
  try {
    return await work(dir)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/** A run's verdicts (JSON lines) for the browser to download. */
export function prepareVerdictsDownload(
  ws: Workspace,
  input: { runId: number; raw: boolean; csv: boolean },
  zipOver = ZIP_OVER_BYTES,
) {
  return inTempDir(async (dir) => {
    // The exporter writes CSV when the file name ends in .csv.
    const out = join(dir, `run-${input.runId}-verdicts.${input.csv ? 'csv' : 'jsonl'}`)
    const { file } = await exportVerdicts(ws, { runId: input.runId, raw: input.raw, out })
    return offer(dir, file, basename(file), zipOver)
  })
}

/** One annotator's bundle of one dataset for the browser to download. */
export function prepareBundleDownload(
  ws: Workspace,
  input: { datasetId: number; annotatorId: number },
  zipOver = ZIP_OVER_BYTES,
) {
  const dataset = getDataset(ws.db, input.datasetId)
  const who = ws.db.prepare('SELECT name FROM annotators WHERE id = ?').get(input.annotatorId) as
    | { name: string }
    | undefined
  return inTempDir(async (dir) => {
    // Named for whose labels they are, as the desktop app names its bundles: a lead collecting
    // several people's downloads must tell them apart without opening them.
    const { file } = await exportBundle(ws, {
      ...input,
      out: join(dir, `${slug(dataset.name)}-${slug(who?.name ?? 'labels')}.bundle.jsonl`),
    })
    return offer(dir, file, basename(file), zipOver)
  })
}

export interface DatasetDownloadInput {
  datasetId: number
  format: ExportFormatName
  annotator?: string
  onProgress?: ExportProgress
  /** Aborted when the person cancels: nothing is offered, the temporary folder goes. */
  signal?: AbortSignal
}

/**
 * Exports a dataset for the browser to download; returns what the download will be. Every file
 * the export writes goes with it (listed in `files`): several go as one zip.
 */
export async function prepareDatasetDownload(
  ws: Workspace,
  input: DatasetDownloadInput,
  zipOver = ZIP_OVER_BYTES,
): Promise<{
  downloadId: string
  fileName: string
  bytes: number
  zipped: boolean
  files: string[]
  note?: string
}> {
  const dataset = getDataset(ws.db, input.datasetId)
  return inTempDir(async (dir) => {
    const outDir = join(dir, 'export')
    const { files, note } = await exportDataset(ws, { ...input, outDir })
    const names = files.map((f) => relative(outDir, f).split(sep).join('/'))
    const lone = files.length === 1 ? files[0]! : null
    let d: Download
    if (lone !== null && statSync(lone).size <= zipOver) {
      const fileName = `${slug(dataset.name)}-${basename(lone)}`
      d = downloads.add({ file: lone, fileName, mime: mimeOf(lone), bytes: statSync(lone).size, dir })
    } else {
      // Named as the README names the CLI's export folder (<dataset>-<format>), so two formats
      // of one dataset downloaded side by side are told apart.
      const file = join(dir, `${exportFolderName(dataset.name, input.format)}.zip`)
      await zipFiles(files, file, outDir)
      d = downloads.add({
        file,
        fileName: basename(file),
        mime: mimeOf(file),
        bytes: statSync(file).size,
        dir,
      })
    }
    return {
      downloadId: d.id,
      fileName: d.fileName,
      bytes: d.bytes,
      zipped: d.file !== lone,
      files: names,
      ...(note === undefined ? {} : { note }),
    }
  })
}
