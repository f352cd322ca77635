// `npm test`'s checks before the tests: biome, the import rules, both tsc projects, the build and
// Electronegativity. None reads what another writes (depcheck's scratch copy sits in its own
// folder under out/, beside the build's), so they run side by side, a few at a time, instead of
// one after another: most of each is one core busy, and CI has two. Each check's output is printed
// whole, under its name, once it ends, so two checks' lines never interleave; a failing check is
// named again at the end. Exits 1 when any failed, after all have run (one run shows every
// problem). `node scripts/checks.js lint typecheck-web` runs only the named ones.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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

function run(check) {
  const started = Date.now()
  return new Promise((resolve) => {
    const chunks = []
    const child = spawn(check.cmd[0], check.cmd.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (c) => chunks.push(c))
    child.stderr.on('data', (c) => chunks.push(c))
    const end = (code, why) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      const output = Buffer.concat(chunks).toString('utf8').trimEnd()
      resolve({ ...check, ok: code === 0, seconds, output: why ? `${output}\n${why}`.trim() : output })
    }
    child.on('error', (e) => end(1, `could not start ${check.cmd[0]}: ${e.message}`))
    child.on('close', (code, signal) => end(code ?? 1, signal ? `stopped by ${signal}` : ''))
  })
}

function report(r) {
  const head = `${r.ok ? '✓' : '✗'} ${r.name} (${r.shows}) ${r.ok ? 'passed' : 'FAILED'} in ${r.seconds} s`
  console.log(`\n── ${head}`)
  if (r.output) console.log(r.output)
}

const asked = process.argv.slice(2)
const unknown = asked.filter((a) => !CHECKS.some((c) => c.name === a))
if (unknown.length > 0) {
  console.error(`No check named ${unknown.join(', ')}. The checks: ${CHECKS.map((c) => c.name).join(', ')}.`)
  process.exit(2)
}
const todo = CHECKS.filter((c) => asked.length === 0 || asked.includes(c.name))
// One more than the cores: a check waiting on the disk leaves its core to another.
const atOnce = Math.max(2, availableParallelism() + 1)
const results = []
let next = 0
async function lane() {
  while (next < todo.length) {
    const r = await run(todo[next++])
    report(r)
    results.push(r)
  }
}
await Promise.all(Array.from({ length: Math.min(atOnce, todo.length) }, lane))

const failed = results.filter((r) => !r.ok)
if (failed.length > 0) {
  console.error(
    `\n${failed.length} of ${results.length} checks failed: ${failed.map((r) => r.name).join(', ')} (output above, under each name)`,
  )
  process.exit(1)
}
console.log(`\nAll ${results.length} checks passed: ${results.map((r) => r.name).join(', ')}`)
