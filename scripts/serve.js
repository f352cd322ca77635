// `npm run serve [-- --workspace FILE --port N]`: browser mode under plain Node, no Electron needed.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIfNeeded } from './lib/build.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
if (!buildIfNeeded(root)) process.exit(1)

const child = spawn(process.execPath, [join(root, 'out', 'main', 'serve.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
})
// Stop signals go on to the server, which closes the workspace before exiting (a second copy of a
// Ctrl+C, which reaches the whole process group, is ignored by it); we exit when it has.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
