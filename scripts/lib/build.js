// Rebuilds the app with electron-vite only when out/ is missing or older than its sources, so
// `npm start` and `npm run serve` are quick after the first run and never serve stale code.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const OUTPUTS = [
  'out/main/index.js',
  'out/main/serve.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
]
const SOURCES = ['src', 'resources', 'electron.vite.config.ts', 'package.json']

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let newest = st.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** True when some output is missing or any source changed after the oldest output was written. */
export function needsBuild(root) {
  const outputs = OUTPUTS.map((f) => join(root, f))
  if (outputs.some((f) => !existsSync(f))) return true
  const oldestOutput = Math.min(...outputs.map((f) => statSync(f).mtimeMs))
  return SOURCES.some((s) => newestMtime(join(root, s)) > oldestOutput)
}

/** Builds if needed; returns false (after printing why) when the build failed. */
export function buildIfNeeded(root) {
  if (!needsBuild(root)) return true
  console.log('Building FactLab (electron-vite build)…')
  const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: 'inherit' })
  if (result.status === 0) return true
  console.error('The build failed (see above); fix the error and run the command again.')
  return false
}
