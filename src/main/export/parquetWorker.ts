// The Parquet export's writer thread (parquetInBackground.ts): writes the packed batches it is
// handed to the file named in its workerData, one row group each, while the app's thread reads
// the next. A separate entry of the app's build and the bench's.
import { parentPort, workerData } from 'node:worker_threads'
import type { ColumnSpec } from './parquetBatch'
import { ParquetFile } from './parquetFile'
import type { WriterMessage, WriterReply } from './parquetInBackground'

// Imported outside a worker (the bench loads every script beside it), it does nothing.
if (parentPort && workerData) {
  const { file, spec } = workerData as { file: string; spec: ColumnSpec[] }
  const port = parentPort
  let out: ParquetFile | null = null
  const reply = (r: WriterReply) => port.postMessage(r)
  const onMessage = (m: WriterMessage) => {
    try {
      out ??= new ParquetFile(file, spec)
      if ('batch' in m) {
        out.write(m.batch)
        reply({ wrote: true })
      } else {
        out.finish()
        port.off('message', onMessage)
        reply({ finished: true })
      }
    } catch (error) {
      port.off('message', onMessage)
      reply({ problem: error instanceof Error ? error.message : String(error) })
    }
  }
  port.on('message', onMessage)
}
