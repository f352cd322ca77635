import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectFormat, importFile } from '../../src/main/import'
import { openWorkspace } from '../../src/main/store/connection'
import { rows, tableCounts, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

function write(name: string, content: string): string {
  const file = join(dir(), name)
  writeFileSync(file, content)
  return file
}

const ROW = { question: 'Q?', answer: 'A.', ungrounded_answer: 'U.', poor_answer: 'P.' }

describe('formats', () => {
  it('detects the format from the content when the extension says little or misleads', async () => {
    expect(await detectFormat(write('a.json', `${JSON.stringify(ROW)}\n${JSON.stringify(ROW)}\n`))).toBe(
      'jsonl',
    )
    expect(await detectFormat(write('b.json', `[\n${JSON.stringify(ROW)}]`))).toBe('json')
    expect(await detectFormat(write('c.txt', 'a\tb\n1\t2\n'))).toBe('tsv')
    expect(await detectFormat(write('d.data', 'a,b\n1,2\n'))).toBe('csv')
    expect(await detectFormat(write('e.bin', 'PAR1....'))).toBe('parquet')
  })

  it('reads CSV with a BOM, CRLF line ends, semicolons and a quoted newline', async () => {
    const file = write(
      'semi.csv',
      '\uFEFFquestion;answer;ungrounded_answer;poor_answer\r\n"Q; one?";"Line one\r\nline two";U.;P.\r\nQ2?;A2.;U2.;P2.\r\n',
    )
    const ws = newWs()
    const r = await importFile(ws, { file })
    expect(r.items).toBe(2)
    const items = rows<{ question: string; reference: string; ext_id: string }>(
      ws,
      'SELECT * FROM items ORDER BY position',
    )
    expect(items.map((i) => [i.ext_id, i.question, i.reference])).toEqual([
      ['1', 'Q; one?', 'Line one\r\nline two'],
      ['2', 'Q2?', 'A2.'],
    ])
  })

  it('a second import waiting on another one is refused cleanly, not left half done', async () => {
    const ws = newWs()
    const other = openWorkspace(ws.file, { skipQuickCheck: true })
    other.exec('BEGIN IMMEDIATE')
    try {
      const file = write('w.jsonl', `${JSON.stringify(ROW)}\n`)
      await expect(importFile(ws, { file })).rejects.toThrow(
        /is busy with another import or write; nothing was imported/,
      )
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    expect(tableCounts(ws).datasets).toBe(0)
  })
})
