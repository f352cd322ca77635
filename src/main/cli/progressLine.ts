import { exportProgressText } from '../../shared/exportProgress'

/**
 * Prints export progress on stderr: on a terminal one line rewritten in place (unless the output
 * is JSON), elsewhere only when asked with --progress, one line per report so a log keeps them.
 * Returns null when nothing is to be printed.
 */
export function exportProgressPrinter(
  stream: { isTTY?: boolean; write(text: string): unknown },
  opts: { progress: boolean; json: boolean },
): ((done: number, total: number) => void) | null {
  const tty = stream.isTTY === true
  if (!opts.progress && (!tty || opts.json)) return null
  return (done, total) => {
    const text = exportProgressText(done, total)
    if (tty) stream.write(`\r${text}${done >= total ? '\n' : ''}`)
    else stream.write(`${text}\n`)
  }
}
