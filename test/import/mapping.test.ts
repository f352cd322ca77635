import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { resolveGold } from '../../src/main/labels/gold'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { holisticSchema } from '../../src/shared/labelSchemas'
import { rows, tableCounts, workspaces } from './helpers'

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

describe("a mapping's label column named after a person already in the workspace", () => {
  /** A workspace where ana has labelled (her own dataset), and a file with a column of "ana"'s labels. */
  async function anaHere() {
    const ws = newWs()
    const file = join(dir(), 'mine.csv')
    writeFileSync(
      file,
      'ref,answer,ana_label,ben_label\nThe sky is blue.,Blue.,true,true\nGrass is green.,Red.,false,true\n',
    )
    const own = await importFile(ws, {
      file,
      datasetName: 'hers',
      mapping: {
        reference: 'ref',
        candidates: [{ variant: 'a', column: 'answer' }],
        wholeUnits: true,
        labels: [{ column: 'ana_label', annotator: 'ana' }],
      },
    })
    expect(own.warnings).toEqual([])
    const ana = ensureAnnotator(ws.db, 'ana')
    return { ws, file, ana }
  }
  const mapping = {
    reference: 'ref',
    candidates: [{ variant: 'a', column: 'answer' }],
    wholeUnits: true,
    labels: [
      { column: 'ana_label', annotator: 'ana' },
      { column: 'ben_label', annotator: 'ben' },
    ],
  }

  it('is refused unless confirmed, naming the column and the person, and creates nothing', async () => {
    const { ws, file } = await anaHere()
    const before = tableCounts(ws)
    await expect(importFile(ws, { file, datasetName: 'theirs', mapping })).rejects.toThrow(
      /gives column "ana_label" as the labels of “ana”, and “ana” is a person already in this workspace: .*--credit-existing-people.*Nothing was imported/,
    )
    // Not the dataset, nor the new person "ben" of the other column.
    expect(tableCounts(ws)).toEqual(before)
  })

  it("confirmed, the column joins that person's labels and the report says so", async () => {
    const { ws, file, ana } = await anaHere()
    const r = await importFile(ws, { file, datasetName: 'theirs', mapping, creditExistingPeople: true })
    expect(r).toMatchObject({ labels: 4 })
    expect(r.warnings).toEqual([
      {
        kind: 'labelsCredited',
        message: 'column "ana_label" is now among the labels of “ana”, who was already in this workspace',
      },
    ])
    const byName = rows<{ name: string; id: number; kind: string }>(
      ws,
      'SELECT name, id, kind FROM annotators ORDER BY name',
    )
    expect(byName).toEqual([
      { name: 'ana', id: ana.id, kind: 'person' },
      { name: 'ben', id: expect.any(Number), kind: 'person' },
    ])
    const anas = rows<{ n: number }>(ws, 'SELECT COUNT(*) AS n FROM labels WHERE annotator_id = ?', ana.id)
    expect(anas).toEqual([{ n: 4 }])
  })

  // "Ana" typed by hand, "ANA" in a mapping; "Zoë" composed (NFC) here, decomposed (NFD) in a file.
  it.each([
    ['ana', 'ANA'],
    ['Zo\u00eb', 'zoe\u0308'],
  ])(
    '%s here and %s in the mapping are one person: refused unless confirmed, then hers',
    async (here, given) => {
      const ws = newWs()
      const person = ensureAnnotator(ws.db, here)
      const file = join(dir(), 'lookalike.csv')
      writeFileSync(file, 'ref,answer,her_label\nThe sky is blue.,Blue.,true\nGrass is green.,Red.,false\n')
      const lookalike = { ...mapping, labels: [{ column: 'her_label', annotator: given }] }
      const before = tableCounts(ws)
      await expect(importFile(ws, { file, mapping: lookalike })).rejects.toThrow(
        `gives column "her_label" as the labels of “${given}”, and “${here}” is a person already in this workspace`,
      )
      expect(tableCounts(ws)).toEqual(before)
      const r = await importFile(ws, { file, mapping: lookalike, creditExistingPeople: true })
      expect(r.warnings.map((w) => w.message)).toEqual([
        `column "her_label" is now among the labels of “${here}”, who was already in this workspace`,
      ])
      expect(rows(ws, 'SELECT id, name FROM annotators')).toEqual([{ id: person.id, name: here }])
      expect(rows(ws, 'SELECT COUNT(*) AS n FROM labels WHERE annotator_id = ?', person.id)).toEqual([
        { n: 2 },
      ])
    },
  )

  it('look-alike names within one file are one new person, named as first seen', async () => {
    const ws = newWs()
    const file = join(dir(), 'twice.csv')
    writeFileSync(file, 'ref,one,two,first,second\nThe sky is blue.,Blue.,Grey.,true,false\n')
    const r = await importFile(ws, {
      file,
      mapping: {
        reference: 'ref',
        candidates: [
          { variant: 'one', column: 'one' },
          { variant: 'two', column: 'two' },
        ],
        wholeUnits: true,
        labels: [
          { column: 'first', annotator: 'Zo\u00eb', variant: 'one' },
          { column: 'second', annotator: 'ZOE\u0308', variant: 'two' },
        ],
      },
    })
    expect(r).toMatchObject({ labels: 2, annotators: 1 })
    expect(rows(ws, 'SELECT name FROM annotators')).toEqual([{ name: 'Zo\u00eb' }])
  })

  it('a name nobody here holds needs no confirming and warns of nothing', async () => {
    const ws = newWs()
    const file = join(dir(), 'first.csv')
    writeFileSync(file, 'ref,answer,ana_label,ben_label\nThe sky is blue.,Blue.,true,true\n')
    const r = await importFile(ws, { file, mapping })
    expect(r).toMatchObject({ labels: 2, annotators: 2, warnings: [] })
  })
})
