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
// Ctrl+C reaches the server too (same process group); the server closes the workspace, then we exit.
process.on('SIGINT', () => {})
process.on('SIGTERM', () => child.kill('SIGTERM'))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
