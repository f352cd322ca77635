import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { Workspace } from '../../src/main/app/workspace'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

const demoWorkspace = () => demoWorkspaceIn(tmp())

const packages = (file: string) => {
  const ws = Workspace.open(file)
  try {
    return (ws.db.prepare('SELECT COUNT(*) AS n FROM packages').get() as { n: number }).n
  } finally {
    ws.close()
  }
}

describe('files handed on are never overwritten; reports are replaced', () => {
  it('package --out refuses an existing file, as bundle does, and records no package', async () => {
    const file = demoWorkspace()
    const out = join(tmp(), 'alex.factlab-package.jsonl')
    const pkg = (...extra: string[]) =>
      cli(['package', '--workspace', file, '--dataset', DEMO, '--annotator', 'alex', '--out', out, ...extra])
    expect((await pkg()).code).toBe(0)
    const sent = readFileSync(out, 'utf8')
    const again = await pkg()
    expect(again.err).toBe(
      `factlab: ${out} already exists: choose another file name so the package it holds is not overwritten\n`,
    )
    expect(again.code).toBe(1)
    expect(readFileSync(out, 'utf8')).toBe(sent)
    expect(packages(file)).toBe(1)
  })

  it("the app's default package name is numbered rather than written over", async () => {
    const file = demoWorkspace()
    const ctx = new AppContext(file, { driver: 'cli' })
    try {
      const handlers = buildHandlers(ctx)
      const make = () => dispatch(handlers, 'projects.exportPackage', { datasetId: 1, annotator: 'alex' })
      const first = await make()
      const second = await make()
      if (!first.ok || !second.ok) throw new Error('package refused')
      const [a, b] = [first.value, second.value] as { file: string }[]
      expect(a!.file).toMatch(/-alex\.factlab-package\.jsonl$/)
      expect(b!.file).toBe(a!.file.replace('.factlab-package.jsonl', '-2.factlab-package.jsonl'))
    } finally {
      ctx.close()
    }
  })

  it('metrics --out replaces an earlier report and says so', async () => {
    const file = demoWorkspace()
    const out = join(tmp(), 'report.csv')
    const report = () =>
      cli(['metrics', '--workspace', file, '--dataset', DEMO, '--format', 'csv', '--out', out])
    const first = await report()
    expect(first.out).toBe(`Wrote ${out}\n`)
    writeFileSync(out, 'stale')
    const second = await report()
    expect(second.code).toBe(0)
    expect(second.out).toBe(`Replaced ${out}\n`)
    expect(readFileSync(out, 'utf8')).not.toBe('stale')
  })
})
