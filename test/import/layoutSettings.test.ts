import { describe, expect, it } from 'vitest'
import { ImportError, importFile, previewFile } from '../../src/main/import'
import { fixture, rows, workspaces } from './helpers'

/*
 * RefChecker's second file and SummEval's dimension are read by one layout each: given for
 * another, or naming a dimension the file does not rate, the import refuses and writes nothing
 * (it used to drop the setting, or import a SummEval file with no gold at all).
 */

const { ws: newWs } = workspaces()

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

  it('a dimension no expert rates names the ones they do', async () => {
    const ws = newWs()
    const message = await refusal(() =>
      importFile(ws, { file: fixture('summeval.jsonl'), presetOptions: { dimension: 'fluncy' } }),
    )
    expect(message).toContain(
      'no expert rates "fluncy" (they rate coherence, consistency, fluency, relevance)',
    )
    expect(datasets(ws)).toBe(0)
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
