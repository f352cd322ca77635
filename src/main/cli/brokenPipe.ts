/**
 * Output piped to a reader that stops early (`factlab calls --json | head -1`) makes the next
 * write fail with EPIPE, which Node raises as an unhandled 'error' event: a stack trace and exit 1
 * for what is the reader's normal way of saying "enough". The CLI treats it as Unix tools do:
 * nothing more is written and nothing is printed about it. The command itself is left to finish
 * (a judge run piped to head is not abandoned half-way), and its exit code stands.
 */
export function quietOnBrokenPipe(stream: NodeJS.WriteStream): void {
  if (stream.listeners('error').includes(onError)) return
  stream.on('error', onError)
}

function onError(this: NodeJS.WriteStream, error: NodeJS.ErrnoException): void {
  // Anything but a gone reader is as unexpected as before: let it surface.
  if (error.code !== 'EPIPE') throw error
  this.write = (() => true) as NodeJS.WriteStream['write']
}
