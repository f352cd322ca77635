import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import type { ImportReport } from '../../src/shared/contract/datasets'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { rows, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()
const apps = testApps()

const FACTS = ['Lake Orrin is known for its blue herons.', 'Lake Orrin is the deepest lake in Arvel.']

/** A WikiEvalFacts row whose `poor_answer` label dict is given as `poor`. */
function wefRow(question: string, poor: Record<string, string>) {
  const dict = (d: Record<string, string>) =>
    `{${Object.entries(d)
      .map(([k, v]) => `'${k}': '${v}'`)
      .join(', ')}}`
  const all = (v: string) => Object.fromEntries(FACTS.map((f) => [f, v]))
  return {
    question,
    answer: 'Lake Orrin is known for its blue herons. It is the deepest lake in Arvel.',
    ungrounded_answer: 'Lake Orrin is known for trout.',
    poor_answer: 'It is a lake.',
    gt_facts: FACTS.map((f) => `- ${f}`).join('\n'),
    human_evaluated_facts_answer: dict(all('True')),
    human_evaluated_facts_ungrounded_answer: dict(all('False')),
    human_evaluated_facts_poor_answer: dict(poor),
  }
}

function write(name: string, text: string): string {
  const file = join(dir(), name)
  writeFileSync(file, text)
  return file
}

const jsonl = (rs: unknown[]) => `${rs.map((r) => JSON.stringify(r)).join('\n')}\n`

describe('fact label dicts that do not fit their facts are reported, not passed over', () => {
  it('a dict missing a fact: the CLI names the line and the answer, and the other labels are kept', async () => {
    const file = write(
      'missing.jsonl',
      jsonl([
        wefRow('What is Lake Orrin known for?', { [FACTS[0]!]: 'False', [FACTS[1]!]: 'False' }),
        wefRow('Which lake is deepest in Arvel?', { [FACTS[1]!]: 'False' }),
      ]),
    )
    const ws = join(dir(), 'w.factlab')
    const r = await cli(['import', file, '--workspace', ws])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('11 labels by 1 annotator')
    expect(r.out).toContain(
      "1 fact has no label in its answer's label dict (left unlabelled for that answer):\n" +
        '  line 2: "Lake Orrin is known for its blue herons." is not a key of human_evaluated_facts_poor_answer (poor_answer)\n',
    )
    const json = await cli(['import', file, '--workspace', ws, '--dataset', 'again', '--json'])
    expect(JSON.parse(json.out).warnings).toEqual([
      {
        kind: 'unlabelledFact',
        at: 'line 2',
        message:
          '"Lake Orrin is known for its blue herons." is not a key of human_evaluated_facts_poor_answer (poor_answer)',
      },
    ])
  })

  it("the app's import call carries the warnings the CLI prints, so the import dialog shows them", async () => {
    // The QA sample: a key with a typo matches no fact, and the fact it meant goes unlabelled.
    const file = write(
      'typo.jsonl',
      jsonl([
        wefRow('What is Lake Orrin known for?', { [FACTS[0]!]: 'False', [FACTS[1]!]: 'False' }),
        wefRow('Which lake is deepest in Arvel?', {
          'Lake Orrin has herons.': 'False',
          [FACTS[1]!]: 'False',
        }),
      ]),
    )
    const app = apps()
    const report = await app.value<ImportReport>('datasets.import', { source: { path: file } })
    expect(report.labels).toBe(11)
    expect(report.warnings).toEqual([
      {
        kind: 'unmatchedFactKey',
        at: 'line 2',
        message: '"Lake Orrin has herons." in human_evaluated_facts_poor_answer (poor_answer)',
      },
      {
        kind: 'unlabelledFact',
        at: 'line 2',
        message:
          '"Lake Orrin is known for its blue herons." is not a key of human_evaluated_facts_poor_answer (poor_answer)',
      },
    ])
  })

  it('a complete file imports without a warning', async () => {
    const file = write('fine.jsonl', jsonl([wefRow('Q?', { [FACTS[0]!]: 'False', [FACTS[1]!]: 'True' })]))
    expect((await importFile(newWs(), { file })).warnings).toEqual([])
  })
})

describe('a row repeating an earlier one is imported and named', () => {
  const pair = (i: number) => ({ sentence1: `The board met on day ${i}.`, sentence2: 'It met.', label: 1 })

  it('JSONL without ids: both rows become items, and the report names both lines', async () => {
    const file = write('dup.jsonl', jsonl([pair(1), pair(2), pair(1), pair(3), pair(2)]))
    const ws = newWs()
    const r = await importFile(ws, { file })
    expect(r.items).toBe(5)
    expect(r.warnings).toEqual([
      { kind: 'repeatedRow', at: 'line 3', message: 'the same as line 1' },
      { kind: 'repeatedRow', at: 'line 5', message: 'the same as line 2' },
    ])
    expect(rows(ws, 'SELECT COUNT(*) AS n FROM items')).toEqual([{ n: 5 }])
    const out = await cli(['import', file, '--workspace', join(dir(), 'w.factlab')])
    expect(out.out).toContain(
      '2 rows repeat an earlier row (same question, reference and answers); each was imported as an item of its own:\n' +
        '  line 3: the same as line 1\n  line 5: the same as line 2',
    )
  })

  it('a JSON array names records, not lines', async () => {
    const file = write('dup.json', JSON.stringify([pair(1), pair(1)], null, 2))
    const r = await importFile(newWs(), { file })
    expect(r.warnings).toEqual([
      {
        kind: 'repeatedRow',
        at: 'record 2 of the JSON array',
        message: 'the same as record 1 of the JSON array',
      },
    ])
  })

  it('rows told apart by their own ids, or by an answer, are not repeats', async () => {
    const ids = write('ids.jsonl', jsonl([1, 2].map((id) => ({ id, ...pair(1) }))))
    expect((await importFile(newWs(), { file: ids })).warnings).toEqual([])
    const answers = write('answers.jsonl', jsonl([pair(1), { ...pair(1), sentence2: 'It did not meet.' }]))
    expect((await importFile(newWs(), { file: answers })).warnings).toEqual([])
  })
})

describe('a bad row is placed by file line and column, or by record in a JSON array', () => {
  const good = { sentence1: 'A.', sentence2: 'B.', label: 1 }

  it('JSONL: the line is the file’s and the column the parser’s, with no second "line"', async () => {
    // The unclosed "B., swallows the next quote, so the parser stops at `label`, the 40th character.
    const file = write(
      'cut.jsonl',
      `${JSON.stringify(good)}\n{"sentence1": "A.", "sentence2": "B., "label": 1}\n`,
    )
    const r = await cli(['import', file, '--workspace', join(dir(), 'w.factlab'), '--skip-bad-rows'])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain(
      "skipped line 2, column 40: invalid JSON (Expected ',' or '}' after property value in JSON)",
    )
    const refused = await cli(['import', file, '--workspace', join(dir(), 'x.factlab')])
    expect(refused.err).toBe(
      `factlab: ${file}, line 2, column 40: invalid JSON (Expected ',' or '}' after property value in JSON)\n`,
    )
  })

  it('JSON array: "record 2 of the JSON array", skipped or refused', async () => {
    const file = write('arr.json', JSON.stringify([good, [1], good], null, 2))
    const r = await cli([
      'import',
      file,
      '--workspace',
      join(dir(), 'w.factlab'),
      '--skip-bad-rows',
      '--json',
    ])
    expect(JSON.parse(r.out).skipped).toEqual([
      { line: 2, at: 'record 2 of the JSON array', reason: 'expected a JSON object, found a list' },
    ])
    const refused = await cli(['import', file, '--workspace', join(dir(), 'x.factlab')])
    expect(refused.err).toBe(
      `factlab: ${file}, record 2 of the JSON array: expected a JSON object, found a list\n`,
    )
  })
})

describe('text with invisible direction controls is imported as it is, and pointed at', () => {
  it('names the row and the part of it, and keeps the characters', async () => {
    const tricky = `Who is \u202Eevil\u202C here?`
    const file = write(
      'bidi.jsonl',
      jsonl([
        { sentence1: 'Plain text.', sentence2: 'Plain.', label: 1 },
        { sentence1: tricky, sentence2: 'Also \u2067isolated\u2069.', label: 0 },
      ]),
    )
    const ws = newWs()
    const r = await importFile(ws, { file })
    expect(r.warnings).toEqual([
      { kind: 'bidiControls', at: 'line 2', message: expect.stringMatching(/^in the /) },
    ])
    // Nothing rewritten: the file's text is the data.
    const texts = (rows(ws, 'SELECT reference AS r FROM items') as { r: string }[]).map((x) => x.r)
    expect(texts.some((t) => t.includes('\u202E'))).toBe(true)
    const out = await cli(['import', file, '--workspace', join(dir(), 'w.factlab')])
    expect(out.out).toContain('1 row holds invisible direction controls')
    expect(out.out).toContain('  line 2: in the ')
  })
})
