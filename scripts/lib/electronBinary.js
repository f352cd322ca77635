// Finds the Electron executable the way the `electron` package does, but without its fallback of
// downloading the binary on first use: on a machine without network that would hang or fail
// with an unhelpful message, and `npm start` should instead explain what to do.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The executable's path, or null when the binary was never downloaded. */
export function electronBinary(electronDir, env = process.env) {
  const pathFile = join(electronDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : ''
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const full = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron')
    return existsSync(full) ? full : null
  }
  if (!relative) return null
  const full = join(electronDir, 'dist', relative)
  return existsSync(full) ? full : null
}

export const MISSING_ELECTRON = [
  'FactLab cannot open its desktop window: the Electron binary is not installed on this machine.',
  'Its install step downloads it from outside the npm registry, which was not possible here',
  '(for example, installs made with ELECTRON_SKIP_BINARY_DOWNLOAD=1 or without network).',
  'Everything else works: run `npm run serve` to use FactLab in your browser (browser mode),',
  'or, on a machine with network access, run `npm install` again (without',
  'ELECTRON_SKIP_BINARY_DOWNLOAD) and then `npm start`.',
].join(' ')
