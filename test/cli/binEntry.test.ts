import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliEntry } from '../../scripts/lib/cliEntry.js'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const repo = join(__dirname, '..', '..')

function write(file: string, text: string, time: number): void {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, text)
  utimesSync(file, time, time)
}

/**
 * A copy of the launcher beside a fake build and a fake source, each answering with its name,
 * so what `factlab` ran is what it prints.
 */
function install(): { root: string; run: () => { out: string; err: string; code: number | null } } {
  const root = tmp()
  for (const f of ['bin/factlab.js', 'scripts/lib/build.js', 'scripts/lib/cliEntry.js']) {
    mkdirSync(join(root, f, '..'), { recursive: true })
    copyFileSync(join(repo, f), join(root, f))
  }
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'))
  const answer = (who: string) =>
    `export async function runCli() { process.stdout.write('${who}'); return 0 }\n`
  const now = Date.now() / 1000
  write(join(root, 'src', 'main', 'cli', 'index.ts'), answer('source'), now - 100)
  write(join(root, 'out', 'main', 'cli.js'), answer('build'), now)
  for (const dir of ['src/main/cli', 'src/main', 'src']) utimesSync(join(root, dir), now - 100, now - 100)
  const run = () => {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'factlab.js')], { encoding: 'utf8' })
    return { out: r.stdout, err: r.stderr, code: r.status }
  }
  return { root, run }
}

describe('bin/factlab.js never runs a build older than the source', () => {
  it('runs the build while it is current, and the source once a source file changed', () => {
    const { root, run } = install()
    expect(cliEntry(root)).toMatchObject({ kind: 'built', stale: false })
    expect(run()).toEqual({ out: 'build', err: '', code: 0 })
    const later = Date.now() / 1000 + 100
    write(
      join(root, 'src', 'main', 'cli', 'index.ts'),
      "export async function runCli() { process.stdout.write('new source'); return 0 }\n",
      later,
    )
    expect(cliEntry(root)).toMatchObject({ kind: 'source', stale: true })
    // Not a terminal: no note on stderr, the command's output only.
    expect(run()).toEqual({ out: 'new source', err: '', code: 0 })
  })
})
