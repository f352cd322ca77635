// `npm test`'s checks before the tests: biome, the import rules, both tsc projects, the build and
// Electronegativity. None reads what another writes (depcheck's scratch copy sits in its own
// folder under out/, beside the build's), so they run side by side instead of one after another:
// most of each keeps one core busy, and CI has two. Exits 1 when any failed, after all have run.
// `node scripts/checks.js lint typecheck-web` runs only the named ones.
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runChecks } from './lib/checks.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const node = process.execPath

/** Longest first, so the slow ones are not left to run alone at the end. */
const CHECKS = [
  {
    name: 'typecheck-node',
    shows: 'tsc -p tsconfig.node.json --noEmit',
    cmd: [bin('tsc'), '-p', 'tsconfig.node.json', '--noEmit'],
  },
  {
    name: 'typecheck-web',
    shows: 'tsc -p tsconfig.web.json --noEmit',
    cmd: [bin('tsc'), '-p', 'tsconfig.web.json', '--noEmit'],
  },
  { name: 'build', shows: 'electron-vite build', cmd: [bin('electron-vite'), 'build'] },
  { name: 'lint', shows: 'biome check .', cmd: [bin('biome'), 'check', '.'] },
  {
    name: 'electronegativity',
    shows: 'node scripts/electronegativity.js',
    cmd: [node, 'scripts/electronegativity.js'],
  },
  { name: 'depcheck', shows: 'node scripts/depcheck.js', cmd: [node, 'scripts/depcheck.js'] },
]

const asked = process.argv.slice(2)
const unknown = asked.filter((a) => !CHECKS.some((c) => c.name === a))
if (unknown.length > 0) {
  console.error(`No check named ${unknown.join(', ')}. The checks: ${CHECKS.map((c) => c.name).join(', ')}.`)
  process.exit(2)
}
const ok = await runChecks(
  CHECKS.filter((c) => asked.length === 0 || asked.includes(c.name)),
  // One more than the cores: a check waiting on the disk leaves its core to another.
  { cwd: root, atOnce: availableParallelism() + 1, print: (text) => console.log(text) },
)
process.exitCode = ok ? 0 : 1
