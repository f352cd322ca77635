import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const root = join(__dirname, '..', '..')

/**
 * `npm run bench` runs outside vitest, so the test helpers a bench part reaches must work where
 * vitest's `inject` does not (benchJudges failed there once: test/runs/helpers.ts → a workspace
 * template). This runs the helpers the bench parts use in a plain Node process.
 */
function inPlainNode(dir: string, code: string): { status: number | null; out: string; err: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')))
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...env, BENCH_DIR: dir },
    encoding: 'utf8',
  })
  return { status: r.status, out: r.stdout.trim(), err: r.stderr }
}

describe('the bench helpers outside vitest', () => {
  it('make the judge bench workspace (test/runs/helpers.ts) in a plain Node process', () => {
    const r = inPlainNode(
      tmp(),
      `import { makeWorkspace } from './test/runs/helpers.ts'
       const { ws } = makeWorkspace(process.env.BENCH_DIR, 3, 2)
       console.log(ws.db.prepare("SELECT COUNT(*) FROM units WHERE kind = 'fact'").pluck().get())
       ws.close()`,
    )
    expect(r.err).not.toContain('Vitest failed')
    expect(r).toMatchObject({ status: 0, out: '6' })
  })

  it('make the demo workspace in a plain Node process', () => {
    const r = inPlainNode(
      tmp(),
      `import { countIn, demoWorkspaceIn } from './test/helpers/demoWorkspace.ts'
       const file = demoWorkspaceIn(process.env.BENCH_DIR)
       console.log(countIn(file, 'SELECT COUNT(*) AS n FROM datasets') > 0 ? 'demo' : 'empty')`,
    )
    expect(r.err).not.toContain('Vitest failed')
    expect(r).toMatchObject({ status: 0, out: 'demo' })
  })
})
