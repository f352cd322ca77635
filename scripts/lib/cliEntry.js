// Which CLI `factlab` (bin/factlab.js) runs: the build in out/ while it is current, else the
// TypeScript source through tsx, so that a change to src/ is never answered by older code.
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { sourcesNewerThan } from './build.js'

export const BUILT_CLI = join('out', 'main', 'cli.js')
export const SOURCE_CLI = join('src', 'main', 'cli', 'index.ts')
/** What the CLI is built from: the renderer, preload and resources do not reach it. */
const CLI_SOURCES = [join('src', 'main'), join('src', 'shared'), 'package.json']

/**
 * The entry to load. `stale` is set when a build exists but a source changed after it (one
 * walk of the sources' mtimes, a few milliseconds): the caller runs the source instead, or the
 * old build with a hint when tsx is not installed.
 */
export function cliEntry(root) {
  const built = join(root, BUILT_CLI)
  const source = join(root, SOURCE_CLI)
  if (!existsSync(built)) return { kind: 'source', file: source, built: null, stale: false }
  if (!sourcesNewerThan(root, statSync(built).mtimeMs, CLI_SOURCES))
    return { kind: 'built', file: built, built, stale: false }
  return { kind: 'source', file: source, built, stale: true }
}
