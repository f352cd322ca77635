import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { rows, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

/** One QAGS row whose sentence three worker ids answered. */
function qagsFile(name: string, workers: readonly string[]): string {
  const row = {
    article: 'Zola wrote Germinal in 1885.',
    summary_sentences: [
      {
        sentence: 'Zola wrote Germinal.',
        responses: workers.map((w) => ({ worker_id: w, response: 'yes' })),
      },
      { sentence: 'It came out in 1885.', responses: [{ worker_id: workers[0], response: 'no' }] },
    ],
  }
  const file = join(dir(), name)
  writeFileSync(file, `${JSON.stringify(row)}\n`)
  return file
}

describe("a release's worker ids that differ only in case or Unicode form", () => {
  it('are one source within a file, named as first seen', async () => {
    const ws = newWs()
    // NFC "Zoë", then the same name decomposed (NFD) and in capitals.
    const r = await importFile(ws, { file: qagsFile('one.jsonl', ['Zo\u00eb', 'ZOE\u0308', 'w2']) })
    expect(r.annotators).toBe(2)
    expect(rows(ws, 'SELECT name, kind FROM annotators ORDER BY id')).toEqual([
      { name: 'Zo\u00eb', kind: 'source' },
      { name: 'w2', kind: 'source' },
    ])
  })

  it('find the source an earlier import made, whatever the spelling', async () => {
    const ws = newWs()
    await importFile(ws, { file: qagsFile('a.jsonl', ['W1', 'w2']), datasetName: 'a' })
    await importFile(ws, { file: qagsFile('b.jsonl', ['w1', 'W2']), datasetName: 'b' })
    expect(rows(ws, 'SELECT name FROM annotators ORDER BY id')).toEqual([{ name: 'W1' }, { name: 'w2' }])
  })
})
