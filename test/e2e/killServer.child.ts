/**
 * A browser-mode server in a process of its own, so a test can SIGKILL it: argv is the workspace
 * file, the port (0: any) and the access token. Prints the page's URL on one line once it listens.
 */
import { resolve } from 'node:path'
import { startServer } from '../../src/main/server/server'

const [file, port, token] = process.argv.slice(2)
const server = await startServer({
  workspaceFile: file!,
  port: Number(port),
  token: token!,
  rendererDir: resolve('out/renderer'),
})
process.stdout.write(`${JSON.stringify({ url: server.url, origin: server.origin })}\n`)
