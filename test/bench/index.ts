/**
 * `npm run bench`: runs every bench part in this folder (each file exports `bench*` functions that
 * report their figures through record.ts: value, bar, ratio, pass or falls short).
 *
 *   npm run bench -- --only metrics            one part (file name) or one function (benchMetrics)
 *   npm run bench -- --only store,metrics      several
 *   npm run bench -- --json out.json           also write the figures to a file
 *   npm run bench -- --compare a.json b.json   compare two such files (nothing is measured)
 *   npm run bench -- --list                    the parts and their functions
 *
 * A bare word (`npm run bench -- metrics`) works like --only, as before.
 *
 * Each bench function runs in a process of its own (this script again, with --child), so its
 * figures do not depend on what ran before it: memory an earlier part left, code it warmed.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type BenchReport, formatCompare, parseReport, summary } from './format'
import { adopt, recorded, setPart } from './record'

const here = dirname(fileURLToPath(import.meta.url))
// Modules of the bench that are not parts: the runner, the format, the recorder, helpers.
// Run by scripts/bench.js from a bundle (out/bench/*.js) or straight from the sources (*.ts).
const NOT_PARTS = new Set(['index', 'format', 'record'])
const partName = (file: string) => file.replace(/\.(ts|js)$/, '')

interface Args {
  only: string[]
  json: string | null
  compare: [string, string] | null
  list: boolean
  /** Internal: run one function of one part and write its figures to `out`. */
  child: { file: string; fn: string; out: string } | null
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: [], json: null, compare: null, list: false, child: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--only') args.only.push(...(argv[++i] ?? '').split(',').filter(Boolean))
    else if (a.startsWith('--only=')) args.only.push(...a.slice(7).split(',').filter(Boolean))
    else if (a === '--json') args.json = argv[++i] ?? null
    else if (a === '--compare') {
      const x = argv[++i]
      const y = argv[++i]
      if (!x || !y) throw new Error('--compare needs two files: --compare a.json b.json')
      args.compare = [x, y]
    } else if (a === '--child') {
      const [file, fn, out] = argv.slice(i + 1, i + 4)
      if (!file || !fn || !out) throw new Error('--child needs a file, a function and an output file')
      args.child = { file, fn, out }
      i += 3
    } else if (a === '--list') args.list = true
    else if (a.startsWith('--')) throw new Error(`unknown option ${a} (see test/bench/index.ts)`)
    else args.only.push(a)
  }
  if (args.json === '') throw new Error('--json needs a file name')
  return args
}

function machine(): string {
  const c = cpus()
  return `${c.length} × ${c[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, ${process.platform}, Node ${process.versions.node}`
}

function commit(): string | null {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' })
    return dirty.trim() === '' ? sha : `${sha}+changes`
  } catch {
    return null
  }
}

/** The figures so far as a report; `sha` is the commit's, which only the runner needs to ask git for. */
function report(sha: string | null = commit()): BenchReport {
  return {
    version: 1,
    commit: sha,
    machine: machine(),
    date: new Date().toISOString(),
    figures: [...recorded()],
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`)
  process.exit(2)
}

let args: Args
try {
  args = parseArgs(process.argv.slice(2))
} catch (e) {
  fail((e as Error).message)
}

if (args.compare) {
  const read = (f: string) => {
    try {
      return parseReport(readFileSync(f, 'utf8'), f)
    } catch (e) {
      return fail((e as Error).message)
    }
  }
  const [a, b] = args.compare.map(read)
  for (const line of formatCompare(a!, b!)) process.stdout.write(`${line}\n`)
} else if (args.child) {
  const { file, fn, out } = args.child
  const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>
  const run = mod[fn]
  if (typeof run !== 'function') fail(`${file} has no bench function ${fn}`)
  setPart(partName(file))
  await (run as () => Promise<void>)()
  writeFileSync(out, JSON.stringify(report(null)))
  // Whatever a part left open (a server, a worker) must not keep its figures from the runner.
  process.exit(0)
} else {
  const files = readdirSync(here)
    .filter(
      (f) => /\.(ts|js)$/.test(f) && !f.endsWith('.test.ts') && !f.startsWith('_') && !f.startsWith('chunk-'),
    )
    .filter((f) => !NOT_PARTS.has(partName(f)))
    .sort()
  const matches = (file: string, fn: string) =>
    args.only.length === 0 ||
    args.only.some((o) => partName(file).includes(o) || fn.toLowerCase() === o.toLowerCase())
  let ran = 0
  const failed: string[] = []
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>
    for (const [name, fn] of Object.entries(mod)) {
      if (!name.startsWith('bench') || typeof fn !== 'function') continue
      if (args.list) {
        process.stdout.write(`${partName(file)}  ${name}\n`)
        continue
      }
      if (!matches(file, name)) continue
      process.stdout.write(`\n== ${partName(file)}: ${name}\n`)
      const out = join(tmpdir(), `factlab-bench-${process.pid}-${ran}.json`)
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), '--child', file, name, out],
        { stdio: 'inherit' },
      )
      ran++
      if (child.status !== 0) {
        failed.push(`${partName(file)}: ${name}`)
        continue
      }
      adopt(parseReport(readFileSync(out, 'utf8'), out).figures)
      rmSync(out, { force: true })
    }
  }
  if (!args.list) {
    if (ran === 0) fail(`no bench part matches ${args.only.join(', ')} (npm run bench -- --list names them)`)
    process.stdout.write(`\n${summary(recorded())}\n`)
    if (failed.length > 0) {
      process.stdout.write(`failed (no figures): ${failed.join(', ')}\n`)
      process.exitCode = 1
    }
    if (args.json) {
      writeFileSync(args.json, `${JSON.stringify(report(), null, 2)}\n`)
      process.stdout.write(`figures written to ${args.json}\n`)
    }
  }
}
