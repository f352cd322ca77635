import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile, previewFile } from '../../src/main/import'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { fixture, rows, tableCounts, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

const row = (i: number) => ({
  question: `Q${i}?`,
  answer: `A${i}.`,
  ungrounded_answer: `U${i}.`,
  poor_answer: `P${i}.`,
})

describe('skip bad rows', () => {
  it('imports the good rows and lists every skipped line with its reason', async () => {
    const lines = [
      JSON.stringify(row(1)),
      '{"question": "broken',
      JSON.stringify({ ...row(3), poor_answer: null }),
      JSON.stringify(row(4)),
      '[1, 2]',
      JSON.stringify(row(6)),
    ]
    const file = join(dir(), 'mixed.jsonl')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const ws = newWs()
    const r = await importFile(ws, { file, skipBadRows: true })
    expect(r.items).toBe(3)
    expect(r.skipped.map((s) => s.line)).toEqual([2, 3, 5])
    expect(r.skipped[1]!.reason).toBe('field "poor_answer": empty')
    expect(r.skipped[2]!.reason).toBe('expected a JSON object, found a list')
    // Items keep the number of the line they came from.
    expect(
      rows<{ ext_id: string }>(ws, 'SELECT ext_id FROM items ORDER BY position').map((i) => i.ext_id),
    ).toEqual(['1', '4', '6'])
  })

  it('skips a duplicate id without losing the first item or leaving part of the second', async () => {
    const file = join(dir(), 'dup.tsv')
    writeFileSync(file, 'id\tsentence1\tsentence2\tlabel\n1\tA.\tB.\t1\n1\tC.\tD.\t0\n2\tE.\tF.\t1\n')
    const ws = newWs()
    const r = await importFile(ws, { file, skipBadRows: true })
    expect(r).toMatchObject({ items: 2, candidates: 2, units: 2, labels: 2 })
    expect(r.skipped).toEqual([{ line: 3, at: 'line 3', reason: 'field "id": duplicate item id "1"' }])
    expect(tableCounts(ws)).toMatchObject({ items: 2, candidates: 2, units: 2, labels: 2, targets: 2 })
  })

  it('refuses a file where every row is bad even when skipping, and writes nothing', async () => {
    const file = join(dir(), 'allbad.jsonl')
    writeFileSync(file, '[1]\n[2]\n')
    const ws = newWs()
    await expect(importFile(ws, { file, skipBadRows: true })).rejects.toThrow(
      `${file}: none of its 2 rows could be imported (first problem: line 1: expected a JSON object, found a list)`,
    )
    expect(tableCounts(ws).datasets).toBe(0)
  })
})

describe('atomic and streamed', () => {
  it('a label saved mid-import goes through at once, and the failed import leaves nothing behind', async () => {
    const ws = newWs()
    const ok = await importFile(ws, { file: fixture('wikievalfacts.csv'), datasetName: 'labelled' })
    const ann = ensureAnnotator(ws.db, 'ana')
    const target = (
      ws.db.prepare('SELECT id FROM targets WHERE dataset_id = ? LIMIT 1').get(ok.datasetId) as { id: number }
    ).id
    const before = tableCounts(ws)
    const file = join(dir(), 'fails.jsonl')
    const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify(row(i + 1)))
    writeFileSync(file, `${lines.join('\n')}\n{"question": "cut`)
    // No waiting at all: between its short transactions the import holds no lock.
    ws.db.pragma('busy_timeout = 0')
    const during: { datasets: string[]; saveError: string }[] = []
    const pending = importFile(ws, {
      file,
      onProgress: () => {
        let saveError = ''
        try {
          ws.labels.save({ targetId: target, annotatorId: ann.id, verdict: 'false' })
        } catch (error) {
          saveError = (error as Error).message
        }
        during.push({ datasets: listDatasets(ws.db).map((d) => d.name), saveError })
      },
    })
    await expect(pending).rejects.toThrow(`${file}, line 1001, column 18: invalid JSON`)
    // Mid-import, the UI sees only finished datasets, and its save is not held up by the import.
    expect(during).toEqual([{ datasets: ['labelled'], saveError: '' }])
    ws.labels.save({ targetId: target, annotatorId: ann.id, verdict: 'true' })
    expect(rows(ws, 'SELECT verdict FROM label_history WHERE annotator_id = ? ORDER BY id', ann.id)).toEqual([
      { verdict: 'false' },
      { verdict: 'true' },
    ])
    // One bad row: nothing of the import is left, only the two saves above were added.
    expect(rows(ws, "SELECT name FROM datasets WHERE name = 'fails'")).toEqual([])
    expect(tableCounts(ws)).toEqual({
      ...before,
      labels: before.labels! + 1,
      label_history: before.label_history! + 2,
    })
  })

  it('the shared connection is never left inside the import transaction', async () => {
    const ws = newWs()
    let sawOpen = false
    await importFile(ws, {
      file: fixture('summeval.jsonl'),
      onProgress: () => {
        sawOpen ||= ws.db.inTransaction
      },
    })
    expect(sawOpen).toBe(false)
  })

  it('preview reads only the start: a broken tail does not stop it', async () => {
    const file = join(dir(), 'tail.jsonl')
    const head = Array.from({ length: 30 }, (_, i) => JSON.stringify(row(i + 1))).join('\n')
    writeFileSync(file, `${head}\n${'{'.repeat(1000)}\n`)
    const p = await previewFile(file, { rows: 5 })
    expect(p.rows).toHaveLength(5)
    expect(p.preset).toBe('wikieval')
  })

  it('imports more rows than fit in one read chunk, line numbers intact across chunks', async () => {
    const file = join(dir(), 'many.jsonl')
    const long = 'z'.repeat(3000)
    const lines = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ ...row(i + 1), context_v1: long }))
    lines[1099] = '{"question": '
    writeFileSync(file, `${lines.join('\n')}\n`)
    const ws = newWs()
    const r = await importFile(ws, { file, skipBadRows: true })
    expect(r.items).toBe(1199)
    expect(r.skipped.map((s) => s.line)).toEqual([1100])
  })
})
