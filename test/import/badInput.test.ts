import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteFile } from 'hyparquet-writer'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { type ImportOptions, importFile } from '../../src/main/import'
import { fixture, tableCounts, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

const HEADER = ['question', 'answer', 'ungrounded_answer', 'poor_answer']
const good = (i: number) => ({
  question: `Question ${i}?`,
  answer: `Answer ${i}.`,
  ungrounded_answer: `Made-up answer ${i}.`,
  poor_answer: `Poor ${i}.`,
})
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`
const csv = (rows: string[][], d = ',') => `${rows.map((r) => r.join(d)).join('\n')}\n`
const goodCsv = (n: number, d = ',') =>
  csv([HEADER, ...Array.from({ length: n }, (_, i) => Object.values(good(i + 1)))], d)

let ws: Workspace
let before: Record<string, number>

/** A workspace that already holds a dataset, so "unchanged" is checked against real content. */
beforeEach(async () => {
  ws = newWs()
  await importFile(ws, { file: fixture('wikievalfacts.csv'), datasetName: 'existing' })
  before = tableCounts(ws)
})

function write(name: string, content: string | Buffer): string {
  const file = join(dir(), name)
  writeFileSync(file, content)
  return file
}

async function refused(opts: ImportOptions, message: string | RegExp): Promise<void> {
  await expect(importFile(ws, opts)).rejects.toThrow(message)
  expect(tableCounts(ws)).toEqual(before)
}

describe('bad input is refused with a message naming file, line and field; nothing changes', () => {
  it.each(['jsonl', 'json', 'csv', 'tsv'])('empty %s file', async (ext) => {
    const file = write(`empty.${ext}`, '')
    await refused({ file }, `${file}: the file is empty`)
  })

  it('a JSONL file of blank lines holds no rows', async () => {
    const file = write('blank.jsonl', '\n\n  \n')
    await refused({ file }, `${file}: holds no rows`)
  })

  it('an empty JSON array holds no rows', async () => {
    const file = write('none.json', '[]')
    await refused({ file }, `${file}: holds no rows`)
  })

  it.each([
    ['csv', ','],
    ['tsv', '\t'],
  ])('a %s header with no rows', async (ext, d) => {
    const file = write(`header.${ext}`, csv([HEADER], d))
    await refused({ file }, `${file}: has a header but no rows`)
  })

  it('wrong column names match no preset and the columns are listed', async () => {
    const file = write(
      'wrong.csv',
      csv([
        ['q', 'a', 'b'],
        ['1', '2', '3'],
      ]),
    )
    await refused(
      { file },
      `${file}: no preset matches its columns ("q", "a", "b"); choose a preset or give a column mapping`,
    )
  })

  it('a preset whose required column is missing names that column', async () => {
    const file = write('missing.jsonl', jsonl([{ question: 'Q?', answer: 'A.', poor_answer: 'P.' }]))
    await refused(
      { file, preset: 'wikieval' },
      `${file}: missing required column "ungrounded_answer" for preset wikieval (its columns: "question", "answer", "poor_answer")`,
    )
  })

  it('a mapping naming a column the file lacks', async () => {
    const file = write('m.csv', goodCsv(2))
    await refused(
      { file, mapping: { reference: 'answer', candidates: [{ variant: 'x', column: 'nope' }] } },
      `${file}: the mapping names column "nope", which the file does not have`,
    )
  })

  it('a later row missing a required field names its line and field', async () => {
    const { poor_answer: _, ...partial } = good(3)
    const file = write('later.jsonl', jsonl([good(1), good(2), partial]))
    await refused({ file }, `${file}, line 3: field "poor_answer": missing`)
  })

  it('duplicate item ids: the second one is a bad row', async () => {
    const file = write(
      'dup.tsv',
      'id\tsentence1\tsentence2\tlabel\n1\tA.\tB.\t1\n2\tC.\tD.\t0\n1\tE.\tF.\t1\n',
    )
    await refused({ file }, `${file}, line 4: field "id": duplicate item id "1"`)
  })

  it('invalid UTF-8 in JSONL names the line', async () => {
    const file = write(
      'bad.jsonl',
      Buffer.concat([Buffer.from(jsonl([good(1)])), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]),
    )
    await refused({ file }, `${file}, line 2: not valid UTF-8 text`)
  })

  it('invalid UTF-8 in CSV names the line', async () => {
    const text = goodCsv(3)
    const file = write(
      'bad.csv',
      Buffer.concat([Buffer.from(text), Buffer.from('Q?,caf'), Buffer.from([0xe9]), Buffer.from(',b,c\n')]),
    )
    await refused({ file }, `${file}, line 5: not valid UTF-8 text`)
  })

  it('invalid UTF-8 in a JSON array names the line', async () => {
    const body = Buffer.concat([
      Buffer.from('[\n'),
      Buffer.from(JSON.stringify(good(1))),
      Buffer.from(',\n{"question": "'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}]'),
    ])
    const file = write('bad.json', body)
    await refused({ file }, `${file}, line 3: not valid UTF-8 text`)
  })

  it('a truncated last line in JSONL', async () => {
    const file = write('cut.jsonl', `${jsonl([good(1), good(2)])}{"question": "Q?", "answ`)
    // The column is the file's own; the parser's "line 1" (of the one line it was given) is left out.
    await refused({ file }, new RegExp(`^${escapeRe(file)}, line 3, column 25: invalid JSON \\([^()]+\\)$`))
  })

  it('a truncated JSON array', async () => {
    const file = write('cut.json', `[${JSON.stringify(good(1))}, {"question": "Q`)
    await refused(
      { file },
      new RegExp(`^${escapeRe(file)}, record 2 of the JSON array: invalid or truncated JSON`),
    )
  })

  it('a truncated CSV (an unclosed quote) names where it ends', async () => {
    const file = write('cut.csv', `${goodCsv(2)}Q?,"half an answer`)
    await refused({ file }, new RegExp(`^${escapeRe(file)}, line 4: .*quote`, 'i'))
  })

  it('a CSV row with too few fields', async () => {
    const file = write('short.csv', `${goodCsv(2)}Q?,A.\n`)
    await refused({ file }, `${file}, line 4: has 2 fields, the header has 4`)
  })

  it('valid JSON of the wrong shape: an object instead of an array', async () => {
    const file = write('obj.json', JSON.stringify({ rows: [good(1)] }))
    await refused({ file, format: 'json' }, `${file}: expected a JSON array of objects`)
  })

  it('a .json file that is not JSON at all is called no JSON array, not a bad record of one', async () => {
    const file = write('notjson.json', 'not json at all\n')
    await refused({ file }, `${file}: expected a JSON array of objects (use JSONL for one object per line)`)
  })

  it('a JSONL line cut short names the line and the column where it breaks off', async () => {
    const cut = '{"question": "Q?", "answer": ['
    const file = write('cut.jsonl', `${JSON.stringify(good(1))}\n${cut}\n`)
    await refused(
      { file },
      `${file}, line 2, column ${cut.length + 1}: invalid JSON (the line ends before its JSON does)`,
    )
  })

  it('valid JSON of the wrong shape: a list on a JSONL line', async () => {
    const file = write('list.jsonl', jsonl([good(1), ['not', 'an', 'object']]))
    await refused({ file }, `${file}, line 2: expected a JSON object, found a list`)
  })

  it('valid JSON of the wrong shape: a nested field of the wrong type', async () => {
    const file = write(
      'qags.jsonl',
      jsonl([{ article: 'A.', summary_sentences: [{ sentence: 'S.', responses: 'yes' }] }]),
    )
    await refused(
      { file },
      `${file}, line 1: field "summary_sentences.0.responses": Invalid input: expected array, received string`,
    )
  })

  it('a verdict outside the schema names the field', async () => {
    const file = write('pairs.tsv', 'sentence1\tsentence2\tlabel\nA.\tB.\tmaybe\n')
    await refused({ file }, `${file}, line 2: field "label": "maybe" is not one of yes, no`)
  })

  it('a fact-label cell that is not a dict names the column', async () => {
    const row = { ...good(1), gt_facts: '- F one.', human_evaluated_facts_answer: "{'F one.': 'True'" }
    const file = write('wef.jsonl', jsonl([row]))
    await refused(
      { file },
      new RegExp(
        `^${escapeRe(file)}, line 1: field "human_evaluated_facts_answer": not a dict of fact labels`,
      ),
    )
  })

  it('a Parquet file of another schema', async () => {
    const file = join(dir(), 'other.parquet')
    parquetWriteFile({
      filename: file,
      columnData: [
        { name: 'image_id', data: [1, 2], type: 'INT32' },
        { name: 'caption', data: ['a', 'b'], type: 'STRING' },
      ],
    })
    await refused({ file }, `${file}: no preset matches its columns ("image_id", "caption")`)
  })

  it('a file called .parquet that is not Parquet', async () => {
    const file = write('fake.parquet', 'question,answer\n')
    await refused({ file }, new RegExp(`^${escapeRe(file)}: not a readable Parquet file`))
  })

  it('a dataset name already taken', async () => {
    await refused(
      { file: fixture('wikieval.jsonl'), datasetName: 'existing' },
      'A dataset named "existing" already exists',
    )
  })

  it('a 10 MB field is imported whole, not cut or refused', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024)
    for (const [name, content] of [
      ['big.jsonl', jsonl([{ ...good(1), answer: big }])],
      ['big.csv', csv([HEADER, ['Q?', big, 'u', 'p']])],
    ] as const) {
      const r = await importFile(ws, { file: write(name, content), datasetName: name })
      const len = ws.db
        .prepare('SELECT length(reference) AS n FROM items WHERE dataset_id = ?')
        .get(r.datasetId) as { n: number }
      expect(len.n).toBe(big.length)
    }
  })
})

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
