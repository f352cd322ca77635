import { join } from 'node:path'
import { parquetWriteFile } from 'hyparquet-writer'
import { describe, expect, it } from 'vitest'
import { importFile, previewFile } from '../../src/main/import'
import { resolveGold } from '../../src/main/labels/gold'
import { goldRuleOf } from '../../src/main/labels/ruleService'
import { datasetStats } from '../../src/main/store/repos/datasets'
import { describeGoldRule } from '../../src/shared/goldRule'
import { fixture, rows, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

interface LabelRow {
  annotator: string
  verdict: string
  unit: string
  variant: string
}

function labelsOf(ws: ReturnType<typeof newWs>, datasetId: number): LabelRow[] {
  return rows<LabelRow>(
    ws,
    `SELECT a.name AS annotator, l.verdict, u.text AS unit, c.variant FROM labels l
     JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
     JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
     WHERE t.dataset_id = ? ORDER BY l.id`,
    datasetId,
  )
}

describe('presets import the fixtures written in their layout', () => {
  it('WikiEval: the ground-truth answer is the reference and one of three candidates', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('wikieval.jsonl') })
    expect(r).toMatchObject({
      dataset: 'wikieval',
      items: 3,
      candidates: 9,
      units: 0,
      labels: 0,
      skipped: [],
    })
    const item = rows<{ ext_id: string; question: string; reference: string; metadata: string }>(
      ws,
      'SELECT * FROM items WHERE dataset_id = ? ORDER BY position',
      r.datasetId,
    )[0]!
    expect(item.ext_id).toBe('1')
    expect(item.reference).toMatch(/^The Corran River/)
    expect(JSON.parse(item.metadata)).toHaveProperty('context_v1')
    const variants = rows<{ variant: string }>(ws, 'SELECT variant FROM candidates ORDER BY id LIMIT 3').map(
      (c) => c.variant,
    )
    expect(variants).toEqual(['answer', 'ungrounded_answer', 'poor_answer'])
  })

  it('WikiEvalFacts (CSV): facts from the dash list, labels from Python dicts, odd keys matched', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('wikievalfacts.csv') })
    expect(r.items).toBe(3)
    expect(r.units).toBe(9) // 3 + 2 + 4 facts
    expect(datasetStats(ws.db, r.datasetId).targets).toBe(27)
    // Every fact key given matches its fact except the one invented extra key. Row 1 spans
    // lines 2–4 (its facts are on three lines), so row 2 starts on line 5.
    expect(r.unmatchedFactKeys).toEqual([
      {
        line: 5,
        variant: 'answer',
        column: 'human_evaluated_facts_answer',
        key: 'The prize is made of bronze.',
      },
    ])
    expect(r.labels).toBe(9 * 3 - 3 + 1) // item 3's extra fact is labelled for `answer` only
    // ...and the two dicts that leave it out say so, as the odd key does.
    const glider = '"Halloway\'s glider flew over the Severn estuary." is not a key of'
    expect(r.warnings).toEqual([
      {
        kind: 'unmatchedFactKey',
        at: 'line 5',
        message: '"The prize is made of bronze." in human_evaluated_facts_answer (answer)',
      },
      {
        kind: 'unlabelledFact',
        at: 'line 7',
        message: `${glider} human_evaluated_facts_ungrounded_answer (ungrounded_answer)`,
      },
      {
        kind: 'unlabelledFact',
        at: 'line 7',
        message: `${glider} human_evaluated_facts_poor_answer (poor_answer)`,
      },
    ])
    const labels = labelsOf(ws, r.datasetId)
    expect(labels.every((l) => l.annotator === 'wikievalfacts')).toBe(true)
    // The released labels are the dataset's reference, not someone to label as on the start screen.
    expect(rows(ws, 'SELECT name, kind FROM annotators')).toEqual([{ name: 'wikievalfacts', kind: 'source' }])
    expect(labels).toContainEqual({
      annotator: 'wikievalfacts',
      verdict: 'not_clear',
      unit: 'Mira Halloway designed the Halloway glider.',
      variant: 'poor_answer',
    })
    expect(labels).toContainEqual({
      annotator: 'wikievalfacts',
      verdict: 'false',
      unit: "Halloway's glider flew over the Severn estuary.",
      variant: 'answer',
    })
  })

  it('WikiEvalFacts (JSONL with a `facts` column) gives the same counts', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('wikievalfacts.jsonl') })
    expect(r).toMatchObject({ items: 3, units: 9, labels: 25, annotators: 1 })
  })

  it('WikiEval from Parquet, the Hugging Face format', async () => {
    const file = join(dir(), 'wikieval.parquet')
    const q = ['What is A?', 'What is B?']
    parquetWriteFile({
      filename: file,
      columnData: [
        { name: 'question', data: q, type: 'STRING' },
        { name: 'answer', data: ['A is one.', 'B is two.'], type: 'STRING' },
        { name: 'ungrounded_answer', data: ['A is ten.', 'B is nine.'], type: 'STRING' },
        { name: 'poor_answer', data: ['A.', 'B.'], type: 'STRING' },
        { name: 'source', data: ['s1', 's2'], type: 'STRING' },
      ],
      rowGroupSize: 1,
    })
    const ws = newWs()
    const r = await importFile(ws, { file, datasetName: 'wk' })
    expect(r).toMatchObject({ dataset: 'wk', items: 2, candidates: 6 })
    const items = rows<{ question: string }>(ws, 'SELECT question FROM items ORDER BY position')
    expect(items.map((i) => i.question)).toEqual(q)
  })

  it('MRPC: BOM and unbalanced quotes in the TSV; the quality becomes the reference labels of a named source', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('mrpc.tsv') })
    expect(r).toMatchObject({ items: 3, candidates: 3, units: 3, labels: 3, annotators: 1 })
    const items = rows<{ ext_id: string; metadata: string }>(
      ws,
      'SELECT ext_id, metadata FROM items ORDER BY position',
    )
    expect(items[0]!.ext_id).toBe('100101-100102')
    expect(JSON.parse(items[1]!.metadata)).toMatchObject({ Quality: '0' })
    const labels = labelsOf(ws, r.datasetId)
    expect(labels.map((l) => [l.annotator, l.verdict, l.variant])).toEqual([
      ['MRPC quality', 'yes', 'paraphrase'],
      ['MRPC quality', 'no', 'paraphrase'],
      ['MRPC quality', 'yes', 'paraphrase'],
    ])
    // A source, not a person; the candidate is a paraphrase and keeps the file's column name.
    expect(rows(ws, 'SELECT name, kind FROM annotators')).toEqual([{ name: 'MRPC quality', kind: 'source' }])
    const meta = rows<{ metadata: string }>(ws, 'SELECT metadata FROM candidates ORDER BY id')[0]!.metadata
    expect(JSON.parse(meta)).toEqual({ column: '#2 String' })
    const refs = rows<{ reference: string }>(ws, 'SELECT reference FROM items ORDER BY position')
    expect(refs[1]!.reference).toContain('"winter" campaign')
    expect(refs[2]!.reference).toBe('"We will tour four cities next autumn," the conductor said.')
  })

  it('MSRpar: 0–5 scores on a numeric schema', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('msrpar.tsv') })
    expect(labelsOf(ws, r.datasetId).map((l) => l.verdict)).toEqual(['4.4', '0.8', '3'])
    const schema = JSON.parse(rows<{ s: string }>(ws, 'SELECT label_schema AS s FROM datasets')[0]!.s)
    expect(schema).toMatchObject({ type: 'numeric', min: 0, max: 5 })
  })

  it('QQP and PAWS: pairs with a 0/1 label', async () => {
    const ws = newWs()
    const qqp = await importFile(ws, { file: fixture('qqp.tsv') })
    const paws = await importFile(ws, { file: fixture('paws.tsv') })
    expect(labelsOf(ws, qqp.datasetId).map((l) => [l.annotator, l.verdict])).toEqual([
      ['QQP duplicate flag', 'yes'],
      ['QQP duplicate flag', 'no'],
    ])
    expect(labelsOf(ws, paws.datasetId).map((l) => [l.annotator, l.verdict])).toEqual([
      ['PAWS paraphrase flag', 'no'],
      ['PAWS paraphrase flag', 'yes'],
    ])
    expect(
      rows<{ ext_id: string }>(ws, 'SELECT ext_id FROM items WHERE dataset_id = ?', qqp.datasetId)[0]!.ext_id,
    ).toBe('7001')
  })

  it('SummEval: lines of one article become one item with a candidate per system', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('summeval.jsonl') })
    expect(r).toMatchObject({ items: 2, candidates: 3, units: 3, labels: 9, annotators: 3 })
    const m1 = labelsOf(ws, r.datasetId).filter(
      (l) => l.variant === 'M2' && l.annotator.startsWith('SummEval expert'),
    )
    expect(m1.map((l) => [l.annotator, l.verdict])).toEqual([
      ['SummEval expert 1', '2'],
      ['SummEval expert 2', '1'],
      ['SummEval expert 3', '2'],
    ])
    expect(rows(ws, 'SELECT DISTINCT kind FROM annotators')).toEqual([{ kind: 'source' }])
    const meta = JSON.parse(
      rows<{ metadata: string }>(ws, "SELECT metadata FROM candidates WHERE variant = 'M2'")[0]!.metadata,
    )
    expect(meta.expert_annotations[0]).toMatchObject({ coherence: 3, fluency: 4 })
  })

  it('SummEval: the crowd is no set of five raters; its ratings stay whole on the summary, the experts are gold', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('summeval.jsonl') })
    // Different workers rate each summary: no "crowd 1..5" annotator enters agreement or gold.
    const names = rows<{ name: string }>(ws, 'SELECT name FROM annotators ORDER BY name').map((a) => a.name)
    expect(names).toEqual(['SummEval expert 1', 'SummEval expert 2', 'SummEval expert 3'])
    const meta = JSON.parse(
      rows<{ metadata: string }>(ws, "SELECT metadata FROM candidates WHERE variant = 'M2'")[0]!.metadata,
    )
    // Every rating of every dimension, as released, and the crowd's mean on the scored one.
    expect(meta.turker_annotations).toHaveLength(5)
    expect(meta.turker_annotations.map((a: { consistency: number }) => a.consistency)).toEqual([
      3, 4, 2, 3, 3,
    ])
    expect(meta.turker_annotations_consistency_mean).toBeCloseTo(3, 12)
    // The gold is the experts' majority, and says so.
    const rule = goldRuleOf(ws.db, r.datasetId)
    expect(rule).toMatchObject({ kind: 'majority', of: 'sources' })
    expect(describeGoldRule(rule)).toContain("dataset's own reference labels")
    const gold = resolveGold(ws.db, r.datasetId)
    expect([...gold.values()].map((g) => g.verdict).sort()).toEqual(['2', '5', '5'])
  })

  it('SummEval with another dimension scores that dimension', async () => {
    const ws = newWs()
    const r = await importFile(ws, {
      file: fixture('summeval.jsonl'),
      presetOptions: { dimension: 'fluency' },
    })
    const first = labelsOf(ws, r.datasetId)[0]!
    expect(first).toMatchObject({ annotator: 'SummEval expert 1', verdict: '5', variant: 'M1' })
  })

  it('QAGS: a sentence unit per summary sentence, an annotator per worker', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('qags.jsonl') })
    expect(r).toMatchObject({ items: 2, candidates: 2, units: 3, labels: 9, annotators: 4 })
    const flood = labelsOf(ws, r.datasetId).filter((l) => l.unit.startsWith('A flood'))
    expect(flood.map((l) => `${l.annotator}:${l.verdict}`)).toEqual([
      'w1:inconsistent',
      'w2:inconsistent',
      'w3:consistent',
    ])
    const kinds = rows<{ kind: string }>(ws, 'SELECT DISTINCT kind FROM units')
    expect(kinds).toEqual([{ kind: 'sentence' }])
  })

  it('RefChecker: triplets with their labels, question and reference from the second file', async () => {
    const ws = newWs()
    const r = await importFile(ws, {
      file: fixture('refchecker.json'),
      secondFile: fixture('refchecker_context.json'),
    })
    expect(r).toMatchObject({ items: 2, candidates: 4, units: 5, labels: 5 })
    const item = rows<{ question: string; reference: string }>(
      ws,
      "SELECT * FROM items WHERE ext_id = 'rc-2'",
    )[0]!
    expect(item.question).toBe('What is Quellin?')
    expect(item.reference).toContain('two partnerships')
    const verdicts = labelsOf(ws, r.datasetId).map((l) => l.verdict)
    expect(verdicts).toEqual(['entailment', 'contradiction', 'entailment', 'entailment', 'neutral'])
    const t = rows<{ triplet: string; origin: string }>(
      ws,
      "SELECT triplet, origin FROM units WHERE origin = 'import:gpt4'",
    )
    expect(JSON.parse(t[0]!.triplet)).toEqual(['Dunmore lighthouse', 'construction year', '1874'])
    // Each extractor's triplets are a candidate of their own: no response mixes two extractors' lists.
    const split = rows<{ variant: string; n: number }>(
      ws,
      `SELECT c.variant, COUNT(u.id) AS n FROM candidates c LEFT JOIN units u ON u.candidate_id = c.id
       GROUP BY c.id ORDER BY c.id`,
    )
    expect(split).toEqual([
      { variant: 'claude2 triplets', n: 2 },
      { variant: 'gpt4 triplets', n: 1 },
      { variant: 'claude2 triplets', n: 2 },
      { variant: 'gpt4 triplets', n: 0 },
    ])
  })

  it('RefChecker without the second file keeps the triplets and leaves the reference empty', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: fixture('refchecker.json') })
    expect(r).toMatchObject({ items: 2, units: 5, labels: 5 })
    const refs = rows<{ question: string | null; reference: string }>(
      ws,
      'SELECT question, reference FROM items',
    )
    expect(refs).toEqual([
      { question: null, reference: '' },
      { question: null, reference: '' },
    ])
  })

  it('previews the first rows with the detected preset and its mapping', async () => {
    const p = await previewFile(fixture('mrpc.tsv'), { rows: 2 })
    expect(p).toMatchObject({ format: 'tsv', preset: 'mrpc', detected: 'mrpc' })
    expect(p.columns).toEqual(['Quality', '#1 ID', '#2 ID', '#1 String', '#2 String'])
    expect(p.rows).toHaveLength(2)
    expect(p.mapping).toMatchObject({
      reference: '#1 String',
      candidates: [{ variant: 'paraphrase', column: '#2 String' }],
    })
    const q = await previewFile(fixture('qags.jsonl'))
    expect(q).toMatchObject({ format: 'jsonl', preset: 'qags', mapping: null })
    // A layout chosen by hand is read with, but the detection is still what the columns say.
    const chosen = await previewFile(fixture('mrpc.tsv'), { rows: 2, preset: 'paws' })
    expect(chosen).toMatchObject({ preset: 'paws', detected: 'mrpc' })
  })
})
