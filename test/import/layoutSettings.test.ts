import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ImportError, importFile, previewFile } from '../../src/main/import'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fixture, rows, workspaces } from './helpers'

/*
 * RefChecker's second file and SummEval's dimension are read by one layout each: given for
 * another, or naming a dimension the file does not rate, the import refuses and writes nothing
 * (it used to drop the setting, or import a SummEval file with no gold at all).
 */

const { ws: newWs, dir: dirOf } = workspaces()
const openApp = testApps()

const datasets = (ws: ReturnType<typeof newWs>) =>
  rows<{ n: number }>(ws, 'SELECT COUNT(*) AS n FROM datasets')[0]!.n

async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ImportError)
  return (error as Error).message
}

describe('settings of one layout', () => {
  it('a second file given with a SummEval file is refused by name', async () => {
    const ws = newWs()
    const message = await refusal(() =>
      importFile(ws, { file: fixture('summeval.jsonl'), secondFile: fixture('refchecker_context.json') }),
    )
    expect(message).toBe(
      'A second file (the question and reference of each id) is read only with RefChecker files; this file is read as summeval',
    )
    expect(datasets(ws)).toBe(0)
  })

  it('a dimension given with a RefChecker file is refused by name', async () => {
    const ws = newWs()
    const message = await refusal(() =>
      importFile(ws, { file: fixture('refchecker.json'), presetOptions: { dimension: 'fluency' } }),
    )
    expect(message).toBe(
      'A rating dimension is chosen only for SummEval files; this file is read as refchecker',
    )
    expect(datasets(ws)).toBe(0)
  })

  it('a dimension no row rates is refused up front, naming the ones the file rates', async () => {
    const ws = newWs()
    const message = await refusal(() =>
      importFile(ws, { file: fixture('summeval.jsonl'), presetOptions: { dimension: 'fluncy' } }),
    )
    expect(message).toBe(
      'No row of the file rates the dimension "fluncy"; its rows rate coherence, consistency, fluency and relevance.',
    )
    expect(datasets(ws)).toBe(0)
  })

  it('with "Skip bad rows" a dimension no row rates is refused too, not every row skipped', async () => {
    const ws = newWs()
    const message = await refusal(() =>
      importFile(ws, {
        file: fixture('summeval.jsonl'),
        skipBadRows: true,
        presetOptions: { dimension: 'fluncy' },
      }),
    )
    expect(message).toBe(
      'No row of the file rates the dimension "fluncy"; its rows rate coherence, consistency, fluency and relevance.',
    )
    expect(datasets(ws)).toBe(0)
  })

  it('with "Skip bad rows" a second file whose ids match no row is refused up front', async () => {
    const ws = newWs()
    const dir = dirOf()
    const other = join(dir, 'contexts.json')
    writeFileSync(other, JSON.stringify([{ id: 'zz-1', question: 'Q?', reference: 'R.' }]))
    const message = await refusal(() =>
      importFile(ws, { file: fixture('refchecker.json'), secondFile: other, skipBadRows: true }),
    )
    expect(message).toMatch(
      /^The second file's ids match none of the file's rows \(the file's ids begin "rc-1"/,
    )
    expect(message).toContain('the second file\'s "zz-1"): check that the two files belong together.')
    expect(datasets(ws)).toBe(0)
  })

  it("the CLI and the import dialog's call refuse the same misspelt dimension in the same words", async () => {
    const dir = dirOf()
    const file = join(dir, 'cli.factlab')
    const r = await cli([
      'import',
      fixture('summeval.jsonl'),
      '--dimension',
      'fluncy',
      '--skip-bad-rows',
      '--workspace',
      file,
    ])
    expect(r.code).not.toBe(0)
    const said =
      'No row of the file rates the dimension "fluncy"; its rows rate coherence, consistency, fluency and relevance.'
    expect(r.err).toContain(said)
    const app = openApp()
    const answer = await app.call('datasets.import', {
      source: { path: fixture('summeval.jsonl') },
      skipBadRows: true,
      dimension: 'fluncy',
    })
    expect(answer).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(answer.ok ? '' : answer.error.message).toContain(said)
    expect(await app.value('datasets.list', {})).toEqual([])
  })

  it('the preview lists the dimensions a SummEval file rates, and none for other layouts', async () => {
    expect((await previewFile(fixture('summeval.jsonl'))).dimensions).toEqual([
      'coherence',
      'consistency',
      'fluency',
      'relevance',
    ])
    expect((await previewFile(fixture('refchecker.json'))).dimensions).toEqual([])
  })
})
