import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { resolveGold } from '../../src/main/labels/gold'
import { holisticSchema } from '../../src/shared/labelSchemas'
import { rows, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

describe('a column mapping from the wizard', () => {
  it('maps ids, candidates, whole-unit labels of named annotators, imported gold and metadata', async () => {
    const file = join(dir(), 'graded.csv')
    writeFileSync(
      file,
      [
        'case;query;gold_answer;bot_answer;grader_ana;grader_ben;adjudicated;source',
        'c1;Who wrote it?;Ada wrote it.;It was Ada.;pass;partially-pass;pass;forum',
        'c2;When?;In 1901.;In 1910.;fail;fail;;forum',
      ].join('\n'),
    )
    const ws = newWs()
    const r = await importFile(ws, {
      file,
      mapping: {
        id: 'case',
        question: 'query',
        reference: 'gold_answer',
        candidates: [{ variant: 'bot', column: 'bot_answer' }],
        wholeUnits: true,
        labels: [
          { column: 'grader_ana', annotator: 'ana' },
          { column: 'grader_ben', annotator: 'ben' },
        ],
        gold: [{ column: 'adjudicated' }],
        metadata: ['source'],
        labelSchema: holisticSchema(),
      },
    })
    expect(r).toMatchObject({ items: 2, candidates: 2, units: 2, labels: 4, annotators: 2 })
    const gold = [...resolveGold(ws.db, r.datasetId).values()].map((g) => [g.verdict, g.source])
    // c1: imported gold wins over the tie; c2: no gold given, the graders agree.
    expect(gold.sort()).toEqual([
      ['fail', 'majority'],
      ['pass', 'import'],
    ])
    const items = rows<{ ext_id: string; question: string; metadata: string }>(
      ws,
      'SELECT * FROM items ORDER BY position',
    )
    expect(items.map((i) => [i.ext_id, i.question, JSON.parse(i.metadata).source])).toEqual([
      ['c1', 'Who wrote it?', 'forum'],
      ['c2', 'When?', 'forum'],
    ])
    const source = JSON.parse(rows<{ source: string }>(ws, 'SELECT source FROM datasets')[0]!.source)
    expect(source).toMatchObject({ file, format: 'csv' })
    expect(source.mapping.labels).toHaveLength(2)
  })

  it('refuses a mapping whose labels need whole units it did not ask for', async () => {
    const file = join(dir(), 'x.csv')
    writeFileSync(file, 'a,b,l\nx,y,yes\n')
    await expect(
      importFile(newWs(), {
        file,
        mapping: {
          reference: 'a',
          candidates: [{ variant: 'b', column: 'b' }],
          labels: [{ column: 'l', annotator: 'z' }],
        },
      }),
    ).rejects.toThrow(
      'The column mapping is invalid: column "l" gives verdicts on whole units, so it needs wholeUnits: true',
    )
  })
})
