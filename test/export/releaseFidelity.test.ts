import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { exportDataset } from '../../src/main/export'
import { importFile } from '../../src/main/import'
import { parsePythonLiteral } from '../../src/main/import/pyLiteral'
import { matchKey } from '../../src/main/import/text'
import { resolveControlLines } from '../../src/main/projects/controlLines'
import { tmpDirs } from '../helpers/tmp'

/**
 * Released benchmark files imported and exported again in their own layout hold what was
 * published: every column, under its own name, every label with its own text.
 */

const tmp = tmpDirs()
const FIXTURES = join(__dirname, '../fixtures/import')

type Rec = Record<string, unknown>

function readRows(file: string): Rec[] {
  if (file.endsWith('.csv')) return parse(readFileSync(file), { columns: true }) as Rec[]
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Rec)
}

/** A label dict as a reader of the release sees it: fact (spelling aside) → label text, exactly. */
function labelDict(cell: unknown): Record<string, unknown> {
  const dict = parsePythonLiteral(String(cell)) as Record<string, unknown>
  return Object.fromEntries(Object.entries(dict).map(([k, v]) => [matchKey(k), v]))
}

/** Every field of every published row, compared with the same field of the exported row. */
function expectSameFields(published: Rec[], exported: Rec[]): void {
  expect(exported).toHaveLength(published.length)
  published.forEach((row, i) => {
    const out = exported[i]!
    for (const [column, value] of Object.entries(row)) {
      expect(out, `row ${i + 1} has column ${column}`).toHaveProperty(column)
      if (column.startsWith('human_evaluated_facts_'))
        expect(labelDict(out[column]), `row ${i + 1}, ${column}`).toEqual(labelDict(value))
      else expect(out[column], `row ${i + 1}, ${column}`).toEqual(value)
    }
  })
}

async function wikiRoundTrip(fixture: string, format: 'wikievalfacts-csv' | 'wikievalfacts-jsonl') {
  const dir = tmp()
  const ws = Workspace.open(join(dir, 'w.factlab'))
  const imported = await importFile(ws, { file: join(FIXTURES, fixture), preset: 'wikievalfacts' })
  const result = await exportDataset(ws, { datasetId: imported.datasetId, format, outDir: join(dir, 'out') })
  return { dir, ws, imported, result, rows: readRows(result.files[0]!) }
}

describe('WikiEvalFacts release, imported and exported as published', () => {
  it('keeps the id column and the facts column under their own names, so a re-import names the same items', async () => {
    const published = readRows(join(FIXTURES, 'wikievalfacts-ids.jsonl'))
    const { dir, ws, result, rows } = await wikiRoundTrip('wikievalfacts-ids.jsonl', 'wikievalfacts-jsonl')
    expect(rows[0]).not.toHaveProperty('gt_facts')
    expectSameFields(published, rows)
    ws.close()

    const again = Workspace.open(join(dir, 'again.factlab'))
    const back = await importFile(again, { file: result.files[0]!, preset: 'wikievalfacts' })
    const ids = again.db
      .prepare('SELECT ext_id FROM items WHERE dataset_id = ? ORDER BY position')
      .pluck()
      .all(back.datasetId)
    expect(ids).toEqual(published.map((r) => r.id))
    expect(resolveControlLines(again.db, back.datasetId, 'q3,answer,2,false').problems).toEqual([])
    again.close()
  })

  it('gives back every published label with its own text, one matching no fact included, and says nothing was left out', async () => {
    const published = readRows(join(FIXTURES, 'wikievalfacts.csv'))
    const { ws, imported, result, rows } = await wikiRoundTrip('wikievalfacts.csv', 'wikievalfacts-csv')
    expect(imported.warnings.map((w) => w.kind)).toContain('unmatchedFactKey')
    expectSameFields(published, rows)
    expect(labelDict(rows[1]!.human_evaluated_facts_answer)).toHaveProperty(
      [matchKey('The prize is made of bronze.')],
      'False',
    )
    expect(labelDict(rows[2]!.human_evaluated_facts_poor_answer)).toHaveProperty(
      [matchKey('Mira Halloway designed the Halloway glider.')],
      'Not clear from the given passage',
    )
    expect(result.note).toContain('1 published label whose key matches no fact')
    expect(result.note).toContain('every label is in the file')
    expect(result.note).not.toContain('Left out')
    ws.close()
  })
})

/** Each exported item's metadata (targets layout, one row per target), by item id. */
async function itemMetadata(fixture: string, preset: 'summeval' | 'qqp'): Promise<Map<string, Rec>> {
  const dir = tmp()
  const ws = Workspace.open(join(dir, 'w.factlab'))
  const imported = await importFile(ws, { file: join(FIXTURES, fixture), preset })
  const { files } = await exportDataset(ws, {
    datasetId: imported.datasetId,
    format: 'jsonl',
    outDir: join(dir, 'out'),
  })
  ws.close()
  const byItem = new Map<string, Rec>()
  for (const row of readRows(files[0]!))
    byItem.set(String(row.item_id), JSON.parse(String(row.item_metadata)) as Rec)
  return byItem
}

describe('released fields kept with the item and exported again', () => {
  it("SummEval's reference summaries and file path", async () => {
    const published = readRows(join(FIXTURES, 'summeval.jsonl'))
    const meta = await itemMetadata('summeval.jsonl', 'summeval')
    expect(meta.size).toBeGreaterThan(0)
    for (const row of published) {
      expect(meta.get(String(row.id))?.references, `references of ${row.id}`).toEqual(row.references)
      expect(meta.get(String(row.id))?.filepath, `filepath of ${row.id}`).toEqual(row.filepath)
    }
  })

  it("QQP's question ids", async () => {
    const published = parse(readFileSync(join(FIXTURES, 'qqp.tsv')), {
      columns: true,
      delimiter: '\t',
    }) as Rec[]
    const meta = await itemMetadata('qqp.tsv', 'qqp')
    expect(meta.size).toBe(published.length)
    for (const row of published)
      expect(meta.get(String(row.id)), `item ${row.id}`).toMatchObject({ qid1: row.qid1, qid2: row.qid2 })
  })
})
