import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { type ColumnSpec, type PackedColumn, packBatch } from './parquetBatch'
import type { Cell } from './targetColumns'

/**
 * A large Parquet export on two cores: the app's thread reads the rows and packs each batch's
 * texts as UTF-8 (parquetBatch.ts) while a worker thread writes the batch before it
 * (parquetWorker.ts, the same ParquetFile the app's thread writes with otherwise). The batches'
 * buffers are moved to the worker, not copied. At most two batches wait for the writer, so memory
 * stays bounded by a few batches whichever side is slower.
 */

export type WriterMessage = { batch: PackedColumn[] } | { finish: true }
export type WriterReply = { wrote: true } | { finished: true } | { problem: string }

/** Batches handed over and not yet written before the reader waits for the writer. */
const AHEAD = 2

/**
 * The writer's script: the bundled parquetWorker.js beside the bundle or one folder above its
 * chunks, or, run from the TypeScript source (tests, the CLI through tsx), parquetWorker.ts
 * through tsx. Null when neither is there: the export then writes on the app's thread.
 */
function writerScript(): { url: URL; execArgv?: string[] } | null {
  const here = import.meta.url
  if (here.endsWith('.ts')) return { url: new URL('./parquetWorker.ts', here), execArgv: ['--import', 'tsx'] }
  const url = ['./parquetWorker.js', '../parquetWorker.js']
    .map((name) => new URL(name, here))
    .find((u) => existsSync(fileURLToPath(u)))
  return url ? { url } : null
}

export interface BackgroundWriter {
  /** Hands a batch over; resolves once the writer has room for another. */
  write(cols: readonly Cell[][]): Promise<void>
  /** Resolves once the file is complete on disk. */
  finish(): Promise<void>
  /** Stops the writer (the caller removes its partial file once this resolves). */
  stop(): Promise<void>
}

/** Starts the writer of `file` (null when it cannot start: the caller writes on its own thread). */
export function startBackgroundWriter(file: string, spec: readonly ColumnSpec[]): BackgroundWriter | null {
  const script = writerScript()
  if (!script) return null
  let worker: Worker
  try {
    worker = new Worker(script.url, {
      workerData: { file, spec },
      ...(script.execArgv ? { execArgv: script.execArgv } : {}),
    })
  } catch {
    return null
  }
  let problem: Error | null = null
  let ahead = 0
  let finished = false
  // Each waiting call's resolve, settled by the writer's next reply (or its failure).
  const waiting: (() => void)[] = []
  const wake = () => {
    for (const w of waiting.splice(0)) w()
  }
  worker.on('message', (m: WriterReply) => {
    if ('problem' in m) problem = new Error(`The Parquet file could not be written: ${m.problem}`)
    else if ('wrote' in m) ahead--
    else finished = true
    wake()
  })
  const stopped = (reason: string) => () => {
    problem ??= finished ? null : new Error(`The Parquet file could not be written: ${reason}`)
    wake()
  }
  worker.once('error', (e) => stopped(e instanceof Error ? e.message : String(e))())
  worker.once('exit', stopped('its writer stopped'))
  const until = async (done: () => boolean) => {
    while (!done() && !problem) await new Promise<void>((resolve) => waiting.push(resolve))
    if (problem) throw problem
  }
  return {
    async write(cols) {
      if (problem) throw problem
      const { columns, transfer } = packBatch(spec, cols)
      ahead++
      worker.postMessage({ batch: columns } satisfies WriterMessage, transfer)
      await until(() => ahead < AHEAD)
    },
    async finish() {
      if (problem) throw problem
      worker.postMessage({ finish: true } satisfies WriterMessage)
      await until(() => finished)
      await worker.terminate()
    },
    async stop() {
      await worker.terminate()
    },
  }
}
