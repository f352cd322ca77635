import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { fixture } from './helpers'

const tmp = tmpDirs()

describe('factlab import', () => {
  it('imports a preset file and prints the JSON report', async () => {
    const db = join(tmp(), 'w.factlab')
    const r = await cli(['import', fixture('qags.jsonl'), '--workspace', db, '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({
      dataset: 'qags',
      items: 2,
      candidates: 2,
      units: 3,
      annotators: 4,
      labels: 9,
      skipped: [],
    })
  })

  it('bad input: exit 1, the message on stderr, nothing written', async () => {
    const dir = tmp()
    const db = join(dir, 'w.factlab')
    const file = join(dir, 'bad.jsonl')
    writeFileSync(
      file,
      '{"question": "Q", "answer": "A", "ungrounded_answer": "U", "poor_answer": "P"}\n[1]\n',
    )
    const r = await cli(['import', file, '--workspace', db])
    expect(r.code).toBe(1)
    expect(r.err).toContain(`${file}, line 2: expected a JSON object, found a list`)
    const w = openWorkspace(db)
    expect(w.prepare('SELECT COUNT(*) AS n FROM datasets').get()).toEqual({ n: 0 })
    w.close()
    const skip = await cli(['import', file, '--workspace', db, '--skip-bad-rows', '--json'])
    expect(skip.code).toBe(0)
    expect(JSON.parse(skip.out).skipped).toEqual([
      { line: 2, at: 'line 2', reason: 'expected a JSON object, found a list' },
    ])
  })

  it('refuses a mapping that names no answer column: nothing to judge, nothing written', async () => {
    const dir = tmp()
    const db = join(dir, 'w.factlab')
    const file = join(dir, 'nocols.csv')
    writeFileSync(file, 'question,answer\nq1,a1\n')
    const mapping = join(dir, 'm.json')
    writeFileSync(mapping, JSON.stringify({ reference: 'question' }))
    const r = await cli(['import', file, '--workspace', db, '--mapping', mapping])
    expect(r.code).toBe(1)
    expect(r.err).toContain('The mapping names no answer column, so there would be nothing to judge')
    const w = openWorkspace(db)
    expect(w.prepare('SELECT COUNT(*) AS n FROM datasets').get()).toEqual({ n: 0 })
    w.close()
  })

  it('a mapping naming a person already here: refused without --credit-existing-people, theirs with it', async () => {
    const dir = tmp()
    const db = join(dir, 'w.factlab')
    const file = join(dir, 'graded.csv')
    writeFileSync(file, 'ref,answer,grade\nThe sky is blue.,Blue.,true\nGrass is green.,Red.,false\n')
    const mapping = join(dir, 'mapping.json')
    writeFileSync(
      mapping,
      JSON.stringify({
        reference: 'ref',
        candidates: [{ variant: 'a', column: 'answer' }],
        wholeUnits: true,
        labels: [{ column: 'grade', annotator: 'ana' }],
      }),
    )
    const first = await cli(['import', file, '--workspace', db, '--mapping', mapping, '--dataset', 'hers'])
    expect(first.code, first.err).toBe(0)
    const count = (sql: string) => {
      const w = openWorkspace(db)
      try {
        return w.prepare(sql).pluck().get()
      } finally {
        w.close()
      }
    }
    const refused = await cli(['import', file, '--workspace', db, '--mapping', mapping, '--dataset', 'again'])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('is a person already in this workspace')
    expect(refused.err).toContain('--credit-existing-people')
    expect(count('SELECT COUNT(*) FROM datasets')).toBe(1)
    const ok = await cli([
      'import',
      file,
      '--workspace',
      db,
      '--mapping',
      mapping,
      '--dataset',
      'again',
      '--credit-existing-people',
    ])
    expect(ok.code, ok.err).toBe(0)
    expect(ok.out).toContain(
      '1 label column was filed under people already in this workspace, as you confirmed:\n  column "grade" is now among the labels of “ana”',
    )
    expect(count("SELECT COUNT(*) FROM annotators WHERE name = 'ana'")).toBe(1)
    expect(
      count("SELECT COUNT(*) FROM labels JOIN annotators a ON a.id = annotator_id WHERE a.name = 'ana'"),
    ).toBe(4)
  })

  it('usage errors exit 2', async () => {
    const db = join(tmp(), 'w.factlab')
    expect((await cli(['import', fixture('mrpc.tsv'), '--workspace', db, '--preset', 'nope'])).code).toBe(2)
    expect((await cli(['import', fixture('mrpc.tsv')])).code).toBe(2)
    expect((await cli(['import-verdicts', fixture('faaf_verdicts.jsonl'), '--workspace', db])).code).toBe(2)
  })

  it('imports with a mapping file, then imports verdicts against the dataset', async () => {
    const dir = tmp()
    const db = join(dir, 'w.factlab')
    const mapping = join(dir, 'm.json')
    writeFileSync(
      mapping,
      JSON.stringify({
        question: 'question',
        reference: 'answer',
        candidates: [
          { variant: 'answer', column: 'answer' },
          { variant: 'poor_answer', column: 'poor_answer' },
        ],
        facts: { column: 'gt_facts' },
      }),
    )
    const imp = await cli([
      'import',
      fixture('wikievalfacts.csv'),
      '--workspace',
      db,
      '--mapping',
      mapping,
      '--dataset',
      'wef',
      '--json',
    ])
    expect(imp.code).toBe(0)
    expect(JSON.parse(imp.out)).toMatchObject({
      dataset: 'wef',
      items: 3,
      candidates: 6,
      units: 9,
      labels: 0,
    })
    const v = await cli([
      'import-verdicts',
      fixture('faaf_verdicts.jsonl'),
      '--workspace',
      db,
      '--dataset',
      'wef',
      '--skip-bad-rows',
      '--unit-base',
      '0',
      '--json',
    ])
    expect(v.code).toBe(0)
    // The mapping left out the ungrounded answers, so that row names a candidate the item lacks.
    expect(JSON.parse(v.out)).toMatchObject({
      verdicts: 4,
      na: 1,
      skipped: [{ line: 4, reason: 'field "variant": item "2" has no candidate "ungrounded_answer"' }],
    })
    // In words: "maybe" is no verdict, and the count says so, as the run list counts N/A apart.
    const said = await cli([
      'import-verdicts',
      fixture('faaf_verdicts.jsonl'),
      ...['--workspace', db, '--dataset', 'wef', '--skip-bad-rows', '--unit-base', '0'],
    ])
    expect(said.code, said.err).toBe(0)
    expect(said.out).toMatch(/^Imported run \d+: 4 verdicts, 1 of them N\/A; skipped 1 row\n/)
  })
})
