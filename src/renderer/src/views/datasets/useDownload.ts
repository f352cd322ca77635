import { downloadPrepared } from '../../api'
import { useTask } from './useExchange'

export interface Prepared {
  downloadId: string
  fileName: string
  bytes: number
  zipped: boolean
}

/**
 * Browser mode's way out: main prepares the file, the browser downloads it under main's name.
 * The result is the sentence the dialog shows once it is done.
 */
export function useDownload(prepare: () => Promise<Prepared>) {
  const task = useTask<string>()
  const run = () => {
    void task.run(async () => {
      const r = await prepare()
      await downloadPrepared(r.downloadId, r.fileName)
      const size = `${(r.bytes / 1024).toFixed(r.bytes < 10_240 ? 1 : 0)} KB`
      return `${r.fileName} (${size})${r.zipped ? ': large, so zipped' : ''}`
    })
  }
  return { run, busy: task.busy, failure: task.failure, done: task.result }
}
