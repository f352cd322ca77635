// `npm run depcheck`: the import rules of .dependency-cruiser.cjs (no circles, services apart
// from the transports, Electron only in the shell, pure statistics, renderer and shared apart).
// Exits 1 and lists every violation when one is broken.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkDependencies, describe } from './lib/depcheck.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { checked, violations } = await checkDependencies({ root, folders: ['src'] })
if (violations.length > 0) {
  for (const v of violations) console.error(describe(v))
  console.error(
    `${violations.length} import rule${violations.length === 1 ? '' : 's'} broken (.dependency-cruiser.cjs)`,
  )
  process.exit(1)
}
console.log(`Import rules hold over ${checked} files (.dependency-cruiser.cjs)`)
