/**
 * The browser-mode server in a process of its own, for the first-screen bench (million.ts), as
 * `npm run serve` runs it: in the bench's own process it shared one event loop with Playwright's
 * driver, which handles every event the page sends (each request, the Performance domain), and
 * the server's answers waited behind that work. Started with the workspace file and the renderer
 * folder; it reports on its IPC channel when it listens (its URL, when its start began on the
 * wall clock, how long the start took), answers "usage" with its CPU time since then and its resident memory, and closes
 * the server and exits on "close".
 */
import { startServer } from '../../../src/main/server/server'

const [file, rendererDir] = process.argv.slice(2)
if (!file || !rendererDir || !process.send)
  throw new Error('usage: fork serverChild with a workspace file and a renderer folder')
const send = process.send.bind(process)
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const server = await startServer({ workspaceFile: file, port: 0, rendererDir })
send({ url: server.url, startedAt: performance.timeOrigin + t0, startMs: performance.now() - t0 })
process.on('message', (m) => {
  if (m === 'usage') {
    const c = process.cpuUsage(cpu0)
    send({ cpuMs: (c.user + c.system) / 1000, rssMB: process.memoryUsage().rss / 2 ** 20 })
  } else if (m === 'close') void server.close().then(() => process.exit(0))
})
