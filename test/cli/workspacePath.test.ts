import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const FIXTURE = join(__dirname, '..', 'fixtures', 'import', 'wikievalfacts.csv')

describe('a --workspace path that does not exist', () => {
  it.each([
    [['datasets'], 'no/such/dir/x.factlab'],
    [['metrics', '--dataset', 'wiki'], 'tema.factlab'],
    [['assign', '--dataset', 'wiki', '--k', '2'], 'x.factlab'],
    [
      [
        'label',
        '--dataset',
        'wiki',
        '--item',
        'q1',
        '--unit',
        '1',
        '--verdict',
        'true',
        '--annotator',
        'ana',
      ],
      'x.factlab',
    ],
    [['merge', 'ana.bundle.jsonl'], 'x.factlab'],
    [['backup'], 'x.factlab'],
    [['call', 'datasets.list'], 'x.factlab'],
  ])('is refused by %j with exit 1 and nothing created', async (args, path) => {
    const dir = tmp()
    const file = join(dir, path)
    const r = await cli([...args, '--workspace', file])
    expect(r.err).toBe(
      `factlab: No workspace at ${file} (a new one is created by factlab import or factlab package --open)\n`,
    )
    expect(r.code).toBe(1)
    expect(readdirSync(dir)).toEqual([])
  })

  it('is created by import, folders and all', async () => {
    const dir = tmp()
    const file = join(dir, 'new', 'team.factlab')
    const r = await cli(['import', FIXTURE, '--workspace', file])
    expect(r.code, r.err).toBe(0)
    expect(existsSync(file)).toBe(true)
  })

  it.each([
    [['import', 'missing.csv']],
    [['package', '--open', 'missing.jsonl']],
    [['call', 'datasets.import', '{"source":{"path":"/nowhere/missing.csv"}}']],
  ])('is left as it was when %j fails: no file, no folder', async (args) => {
    const dir = tmp()
    const file = join(dir, 'new', 'deeper', 'x.factlab')
    const r = await cli([...args, '--workspace', file])
    expect(r.code).toBe(1)
    expect(r.err).not.toMatch(/No workspace at/)
    expect(readdirSync(dir)).toEqual([])
  })

  it('a failed import keeps a folder that was there before', async () => {
    const dir = tmp()
    const r = await cli(['import', 'missing.csv', '--workspace', join(dir, 'x.factlab')])
    expect(r.code).toBe(1)
    expect(existsSync(dir)).toBe(true)
    expect(readdirSync(dir)).toEqual([])
  })
})
