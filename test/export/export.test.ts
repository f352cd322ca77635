import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { parquetReadObjects } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import { exportDataset } from '../../src/main/export'
import { parsePythonLiteral } from '../../src/main/import/pyLiteral'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { ITEMS, seedWorkspace, VARIANTS, wsFile } from './seed'

const tmp = tmpDirs()

type Rec = Record<string, unknown>

async function readBack(file: string): Promise<Rec[]> {
  if (file.endsWith('.jsonl'))
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Rec)
  if (file.endsWith('.csv')) return parse(readFileSync(file), { columns: true }) as Rec[]
  const buf = readFileSync(file)
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
  return (await parquetReadObjects({ file: ab })) as Rec[]
}

function yamlHeader(card: string): string {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(card)
  expect(m, 'card starts with a YAML header').not.toBeNull()
  return m![1]!
}

describe('dataset export, targets layout', () => {
  for (const format of ['jsonl', 'csv', 'parquet'] as const) {
    it(`writes one ${format} row per target with each annotator's verdict and the gold`, async () => {
      const dir = tmp()
      const { ws, ds, targets, truth } = seedWorkspace(wsFile(dir))
      const { files } = await exportDataset(ws, { datasetId: ds.id, format, outDir: join(dir, 'out') })
      expect(files.map((f) => f.split('/').pop())).toEqual([`data.${format}`, 'README.md'])
      const rows = await readBack(files[0]!)
      expect(rows).toHaveLength(targets.length)
      for (const t of targets) {
        const row = rows.find(
          (r) => r.item_id === t.item && r.variant === t.variant && r.unit_text === t.fact,
        )
        expect(row, `${t.item}/${t.variant}/${t.fact}`).toBeDefined()
        expect(row!.label_ana).toBe(truth(t))
        expect(row!.unit_kind).toBe('fact')
        // Ben disagrees on one target: no majority, so no gold there.
        const disputed = row!.label_ben !== row!.label_ana
        expect(row!.gold || null).toBe(disputed ? null : truth(t))
        if (!disputed) expect(row!.gold_source).toBe('majority')
      }
      expect(rows.filter((r) => r.label_ben === 'not_clear')).toHaveLength(1)
      // Texts survive quoting: quotes, backslashes, commas and line breaks.
      expect(rows.map((r) => r.unit_text)).toContain('The separator is one\ncharacter long.')
      expect(rows.map((r) => r.reference)).toContain('Windows separates paths with a backslash (\\).')
      expect(Number(rows[0]!.unit_version)).toBe(1)
      ws.close()
    })
  }

  it('writes a dataset card with features, split size, schema, annotators and agreement', async () => {
    const dir = tmp()
    const { ws, ds, targets } = seedWorkspace(wsFile(dir))
    const { files } = await exportDataset(ws, { datasetId: ds.id, format: 'jsonl', outDir: dir })
    const card = readFileSync(files[1]!, 'utf8')
    const yaml = yamlHeader(card)
    expect(yaml).toContain('license: other')
    expect(yaml).toMatch(/size_categories:\n- "n<1K"/)
    expect(yaml).toMatch(
      /configs:\n- config_name: default\n {2}data_files:\n {2}- split: train\n {4}path: "data.jsonl"/,
    )
    for (const f of ['item_id', 'unit_text', 'label_ana', 'label_ben', 'gold', 'evidence'])
      expect(yaml).toContain(`- name: "${f}"`)
    expect(yaml).toContain(`num_examples: ${targets.length}`)
    expect(yaml).toMatch(/num_bytes: [1-9]\d*/)
    // Schema with its binary mapping: not_clear counts as unsupported.
    expect(card).toMatch(/\| `not_clear` \| unsupported \|/)
    expect(card).toMatch(/\| Ana \| `label_ana` \| 12 \|/)
    expect(card).toMatch(/\| Ben \| `label_ben` \| 12 \|/)
    // 11 of the 12 shared targets agree.
    expect(card).toContain('Measured on the 12 targets')
    // Percent agreement over the same twelve is marked as the κ beside it is.
    expect(card).toContain(
      `percent agreement (mean over targets of agreeing pairs of people): ${((11 / 12) * 100).toFixed(1)}% · too few shared targets (n=12)`,
    )
    // Ana: 6 true, 6 false; Ben the same but one false is not_clear. By hand: Cohen's κ =
    // (11/12 − 11/24) / (1 − 11/24) = 0.846; Fleiss' κ with pooled shares 12/24, 11/24, 1/24 = 0.845.
    // Twelve shared targets are fewer than a κ can be read from: the card says so beside each.
    expect(card).toContain("Fleiss' κ: 0.845 · too few shared targets (n=12)")
    expect(card).toContain('| Ana / Ben | 12 | 0.846 · too few shared targets (n=12) |')
    ws.close()
  })

  it('limits the label columns to one annotator on request and refuses an unknown one', async () => {
    const dir = tmp()
    const { ws, ds } = seedWorkspace(wsFile(dir))
    const { files } = await exportDataset(ws, {
      datasetId: ds.id,
      format: 'csv',
      outDir: dir,
      annotator: 'Ben',
    })
    const rows = await readBack(files[0]!)
    expect(Object.keys(rows[0]!)).toContain('label_ben')
    expect(Object.keys(rows[0]!)).not.toContain('label_ana')
    await expect(
      exportDataset(ws, { datasetId: ds.id, format: 'csv', outDir: dir, annotator: 'Zoe' }),
    ).rejects.toThrow(/No annotator named "Zoe"/)
    ws.close()
  })

  it('exports evidence spans with the text they point at, and notes', async () => {
    const dir = tmp()
    const { ws, ds, ana, targets } = seedWorkspace(wsFile(dir))
    const t = targets[0]!
    ws.labels.save({
      targetId: t.targetId,
      annotatorId: ana.id,
      verdict: 'true',
      evidence: [{ pane: 'candidate', start: 0, end: 13 }],
      note: 'name matches',
    })
    const { files } = await exportDataset(ws, { datasetId: ds.id, format: 'jsonl', outDir: dir })
    const row = (await readBack(files[0]!)).find((r) => r.evidence !== null)!
    expect(JSON.parse(row.evidence as string)).toEqual([
      { annotator: 'Ana', pane: 'candidate', start: 0, end: 13, text: 'Frank Herbert' },
    ])
    expect(JSON.parse(row.notes as string)).toEqual({ Ana: 'name matches' })
    ws.close()
  })

  it('leaves out superseded unit versions, keeps answers left with no units, and writes a valid empty file for an empty dataset', async () => {
    const dir = tmp()
    const { ws, ds, targets } = seedWorkspace(wsFile(dir))
    const unit = ws.db.prepare('SELECT unit_id FROM targets WHERE id = ?').get(targets[0]!.targetId) as {
      unit_id: number
    }
    ws.db.prepare("UPDATE units SET deleted_at = '2026-01-01' WHERE id = ?").run(unit.unit_id)
    const { files } = await exportDataset(ws, { datasetId: ds.id, format: 'parquet', outDir: dir })
    expect(await readBack(files[0]!)).toHaveLength(targets.length - 3)
    // With every unit deleted, each answer still has its row (so an import gets the items back).
    ws.db.prepare("UPDATE units SET deleted_at = '2026-01-01'").run()
    const bare = await exportDataset(ws, { datasetId: ds.id, format: 'parquet', outDir: join(dir, 'b') })
    const answers = await readBack(bare.files[0]!)
    expect(answers.map((r) => `${r.item_id} ${r.variant} ${r.unit_kind}`)).toEqual(
      ITEMS.flatMap((it) => VARIANTS.map((v) => `${it.extId} ${v} null`)),
    )
    const none = createDataset(ws.db, { name: 'nothing yet', labelSchema: FAAF_SCHEMA })
    const empty = await exportDataset(ws, { datasetId: none.id, format: 'parquet', outDir: join(dir, 'e') })
    expect(await readBack(empty.files[0]!)).toEqual([])
    ws.close()
  })
})

describe('dataset export, WikiEvalFacts layout', () => {
  // The seeded items have ids of their own (q1, q2), so the id column comes first.
  const COLUMNS = [
    'id',
    'question',
    'answer',
    'ungrounded_answer',
    'poor_answer',
    'context_v1',
    'context_v2',
    'source',
    'gt_facts',
    'human_evaluated_facts_answer',
    'human_evaluated_facts_ungrounded_answer',
    'human_evaluated_facts_poor_answer',
  ]

  for (const format of ['wikievalfacts-csv', 'wikievalfacts-jsonl'] as const) {
    it(`writes the FaaF release columns as ${format}, with labels as Python dict literals`, async () => {
      const dir = tmp()
      const { ws, ds } = seedWorkspace(wsFile(dir))
      const { files } = await exportDataset(ws, { datasetId: ds.id, format, outDir: dir, annotator: 'Ben' })
      const rows = await readBack(files[0]!)
      expect(Object.keys(rows[0]!)).toEqual(COLUMNS)
      expect(rows.map((r) => r.question)).toEqual(ITEMS.map((i) => i.question))
      expect(rows[0]!.context_v1).toBe(ITEMS[0]!.meta.context_v1)
      expect(rows[0]!.gt_facts).toBe(ITEMS[0]!.facts.map((f) => `- ${f}`).join('\n'))
      // A line break inside a fact would split it, so it becomes a space.
      expect(rows[1]!.gt_facts).toContain('- The separator is one character long.')
      const poor = parsePythonLiteral(rows[1]!.human_evaluated_facts_poor_answer as string)
      expect(poor).toEqual({
        'Windows uses the backslash \\ as a path separator.': 'False',
        'The separator is one character long.': 'Not clear',
      })
      const first = parsePythonLiteral(rows[0]!.human_evaluated_facts_answer as string)
      expect(first).toEqual({
        "Frank Herbert wrote 'Dune'.": 'True',
        'Dune was published in 1965, per "records".': 'True',
      })
      ws.close()
    })
  }

  it('takes labels from the gold by default, leaving disputed facts out of the dict', async () => {
    const dir = tmp()
    const { ws, ds } = seedWorkspace(wsFile(dir))
    const { files } = await exportDataset(ws, {
      datasetId: ds.id,
      format: 'wikievalfacts-jsonl',
      outDir: dir,
    })
    const rows = await readBack(files[0]!)
    expect(parsePythonLiteral(rows[1]!.human_evaluated_facts_poor_answer as string)).toEqual({
      'Windows uses the backslash \\ as a path separator.': 'False',
    })
    expect(readFileSync(files[1]!, 'utf8')).toContain('the gold verdict of each fact')
    ws.close()
  })
})
