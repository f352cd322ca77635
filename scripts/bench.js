#!/usr/bin/env node
// `npm run bench`: bundles test/bench (esbuild, ESM, dependencies left external) into out/bench and
// runs it there, so the figures measure code compiled the way the app ships it. Run through tsx,
// every import of a constant in a hot loop became a getter call and the metrics took twice the CPU.
import { spawnSync } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const benchDir = join(root, 'test', 'bench')
const outdir = join(root, 'out', 'bench')
const entryPoints = readdirSync(benchDir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => ({ in: join(benchDir, f), out: f.replace(/\.ts$/, '') }))
  // A worker thread's script, beside the chunks that start it (as in the app's build).
  .concat([{ in: join(root, 'src', 'main', 'metrics', 'compareWorker.ts'), out: 'compareWorker' }])
  // The first-screen bench's server, in a process of its own (test/bench/million/serverChild.ts); the runner skips names starting with _.
  .concat([{ in: join(benchDir, 'million', 'serverChild.ts'), out: '_serverChild' }])
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
})
const run = spawnSync(
  process.execPath,
  ['--enable-source-maps', join(outdir, 'index.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: root,
  },
)
process.exitCode = run.status ?? 1
