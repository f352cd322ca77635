// `npm start`: the desktop app. Explains itself and exits 1 where the Electron binary is missing.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIfNeeded } from './lib/build.js'
import { electronBinary, MISSING_ELECTRON } from './lib/electronBinary.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const binary = electronBinary(join(root, 'node_modules', 'electron'))
if (!binary) {
  console.error(MISSING_ELECTRON)
  process.exit(1)
}
if (!buildIfNeeded(root)) process.exit(1)

const env = { ...process.env }
// Set by some tools, it would make the Electron binary behave as plain Node and ignore the app.
delete env.ELECTRON_RUN_AS_NODE
const child = spawn(binary, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
