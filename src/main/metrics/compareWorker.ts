// The metrics' worker thread (backgroundWorker.ts): does the one job it is handed and sends the
// answer back, its arrays handed over rather than copied. A separate entry of the app's build
// and the bench's.
import { parentPort, workerData } from 'node:worker_threads'
import type { LabelSchema } from '../../shared/labelSchemas'
import type { WorkerJob } from './backgroundWorker'
import { computeLists, type ListsInput } from './compareLists'

try {
  const job = workerData as WorkerJob
  if (job.job === 'lists') parentPort?.postMessage({ answer: computeLists(job.input as ListsInput) })
  else {
    const { file, datasetId, runIds, schema } = job.input as {
      file: string
      datasetId: number
      runIds: number[]
      schema: LabelSchema
    }
    // Only this job opens the database: the lists' job never loads the driver.
    const { readRuns } = await import('./runsRead')
    const read = readRuns(file, datasetId, runIds, schema)
    const buffers = new Set<ArrayBuffer>()
    for (const r of read.runs)
      for (const a of [r.bin, r.code, r.status, r.num])
        if (a && a.buffer instanceof ArrayBuffer) buffers.add(a.buffer)
    parentPort?.postMessage({ answer: read }, [...buffers])
  }
} catch (error) {
  parentPort?.postMessage({ problem: error instanceof Error ? error.message : String(error) })
}
