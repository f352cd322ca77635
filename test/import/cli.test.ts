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
      skipped: [{ line: 4, reason: 'field "variant": item "2" has no candidate "ungrounded_answer"' }],
    })
  })
})
