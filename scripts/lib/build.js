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

/** True when some output is missing or any source changed after the oldest output was written. */
export function needsBuild(root) {
  const outputs = OUTPUTS.map((f) => join(root, f))
  if (outputs.some((f) => !existsSync(f))) return true
  return sourcesNewerThan(root, Math.min(...outputs.map((f) => statSync(f).mtimeMs)))
}

/**
 * True when any of `sources` (files or folders, the app's by default) changed after `mtimeMs`:
 * a build that old is stale.
 * Stops at the first newer one, one stat per entry (bin/factlab.js asks on every start).
 */
export function sourcesNewerThan(root, mtimeMs, sources = SOURCES) {
  return sources.some((s) => changedAfter(join(root, s), mtimeMs))
}

function changedAfter(path, mtimeMs) {
  const st = statSync(path, { throwIfNoEntry: false })
  if (!st) return false
  if (st.mtimeMs > mtimeMs) return true
  return st.isDirectory() && readdirSync(path).some((entry) => changedAfter(join(path, entry), mtimeMs))
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
