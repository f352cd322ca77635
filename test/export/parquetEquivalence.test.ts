import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { parquetReadObjects } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Workspace } from '../../src/main/app/workspace'
import { agreementSummary } from '../../src/main/export/agreementSummary'
import { CardTally } from '../../src/main/export/cardTally'
import { exportDataset } from '../../src/main/export/datasetExport'
import { annotatorColumns, type Row, targetRows } from '../../src/main/export/targetRows'
import { resolveGold, setGold } from '../../src/main/labels/gold'
import { labelCountsByAnnotator } from '../../src/main/labels/reads'
import { setGoldRule } from '../../src/main/labels/ruleService'
import { labelsJsonOfTarget } from '../../src/main/labels/sql'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset, datasetSettings, getDataset } from '../../src/main/store/repos/datasets'
import { EvidenceSpan } from '../../src/shared/domain'
import { isDefaultGoldRule } from '../../src/shared/goldRule'
import { FAAF_SCHEMA, type LabelSchema, toBinary } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, wsFile } from './seed'

const tmp = tmpDirs()

/**
 * The rows as the export built them before it read the labels in one pass: a JSON array of
 * labels per target from SQL, the gold map of resolveGold. The reference the columnar export
 * (targetColumns.ts) must match value for value.
 */
function referenceRows(ws: Workspace, datasetId: number, only?: string): Row[] {
  const db = ws.db
  const schema: LabelSchema = getDataset(db, datasetId).labelSchema
  const annotators = annotatorColumns(db, datasetId, only)
  const gold = resolveGold(db, datasetId)
  const names = new Map(annotators.map((a) => [a.id, a]))
  const Cells = z.array(
    z.object({
      a: z.number(),
      v: z.string().nullable(),
      e: z.array(EvidenceSpan),
      n: z.string().nullable(),
      s: z.number().optional(),
      g: z.number().nullable().optional(),
    }),
  )
  // An answer with no current units gets one row of its own, its unit columns empty.
  const rows = db
    .prepare(
      `SELECT t.id AS target_id, i.ext_id, i.question, i.reference, c.variant, c.text AS candidate,
         u.kind, u.text AS unit_text, u.version, u.origin, u.triplet,
         i.metadata AS item_metadata, c.metadata AS candidate_metadata,
         CASE WHEN t.id IS NULL THEN '[]' ELSE ${labelsJsonOfTarget('t.id')} END AS labels,
         (SELECT verdict FROM controls WHERE target_id = t.id) AS control
       FROM items i INDEXED BY items_by_dataset JOIN candidates c ON c.item_id = i.id
       LEFT JOIN (targets t JOIN units u ON u.id = t.unit_id AND u.superseded_by IS NULL AND u.deleted_at IS NULL)
         ON t.candidate_id = c.id
       WHERE i.dataset_id = ?
       ORDER BY i.position, c.id, u.kind, u.position, u.id`,
    )
    .all(datasetId) as Record<string, string | number | null>[]
  const sources = (
    db.prepare("SELECT name FROM annotators WHERE kind = 'source' ORDER BY name").pluck().all() as string[]
  ).filter((n) => annotators.some((a) => a.name === n))
  // Every guidelines version on the first row only; these datasets have no plan.
  const guidelines = db
    .prepare('SELECT version, body, author, created_at FROM guidelines WHERE dataset_id = ? ORDER BY version')
    .all(datasetId)
  // Label times on targets two or more people gave a verdict on (the order past k hangs on).
  const shared = new Set(
    db
      .prepare('SELECT id FROM targets WHERE dataset_id = ? AND labels_n >= 2')
      .pluck()
      .all(datasetId) as number[],
  )
  const placedAt = new Map(
    (
      db.prepare('SELECT target_id AS t, annotator_id AS a, created_at AS at FROM labels').all() as {
        t: number
        a: number
        at: string
      }[]
    ).map((l) => [`${l.t}/${l.a}`, l.at]),
  )
  return rows.map((r, k) => {
    const row: Row = {
      item_id: r.ext_id!,
      question: r.question!,
      reference: r.reference!,
      variant: r.variant!,
      candidate: r.candidate!,
      unit_kind: r.kind!,
      unit_text: r.unit_text!,
      unit_version: r.version!,
      unit_origin: r.origin!,
      triplet: r.triplet!,
    }
    for (const a of annotators) row[a.column] = null
    const evidence: unknown[] = []
    const notes: Record<string, string> = {}
    const seconds: Record<string, number> = {}
    const versions: Record<string, number> = {}
    const times: Record<string, string> = {}
    for (const l of Cells.parse(JSON.parse(r.labels as string))) {
      const a = names.get(l.a)
      if (!a) continue
      row[a.column] = l.v
      if (l.n) notes[a.name] = l.n
      if (l.v !== null && l.s !== undefined) seconds[a.name] = l.s
      if (l.v !== null && l.g != null) versions[a.name] = l.g
      if (l.v !== null && shared.has(r.target_id as number))
        times[a.name] = placedAt.get(`${r.target_id}/${l.a}`)!
      for (const span of l.e) {
        const source = String(span.pane === 'reference' ? r.reference : r.candidate)
        evidence.push({ annotator: a.name, ...span, text: source.slice(span.start, span.end) })
      }
    }
    const g = gold.get(r.target_id as number)
    row.gold = g?.verdict ?? null
    row.gold_source = g?.source ?? null
    row.gold_binary = g ? toBinary(schema, g.verdict) : null
    row.control = r.control!
    row.evidence = evidence.length ? JSON.stringify(evidence) : null
    row.notes = Object.keys(notes).length ? JSON.stringify(notes) : null
    row.active_seconds = Object.keys(seconds).length ? JSON.stringify(seconds) : null
    row.guidelines_version = Object.keys(versions).length ? JSON.stringify(versions) : null
    row.source_annotators = sources.length ? JSON.stringify(sources) : null
    row.dataset_schema = 'faaf'
    const meta = (text: string | number | null | undefined) =>
      text === null || text === undefined || text === '{}' || text === '' ? null : String(text)
    row.item_metadata = meta(r.item_metadata)
    row.candidate_metadata = meta(r.candidate_metadata)
    const rule = datasetSettings(db, datasetId).goldRule
    row.gold_rule = isDefaultGoldRule(rule) ? null : JSON.stringify(rule)
    row.guidelines = k === 0 && guidelines.length > 0 ? JSON.stringify(guidelines) : null
    row.project_plan = null
    row.labelled_at = Object.keys(times).length ? JSON.stringify(times) : null
    return row
  })
}

async function parquetRows(file: string): Promise<Row[]> {
  const buf = readFileSync(file)
  const rows = (await parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength),
  })) as Record<string, unknown>[]
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, (v ?? null) as Row[string]])),
  )
}

const VERDICTS = ['true', 'false', 'not_clear', null] as const

const LabelPlan = fc.record({
  verdict: fc.constantFrom(...VERDICTS),
  evidence: fc.option(
    fc.record({
      pane: fc.constantFrom('reference', 'candidate'),
      start: fc.nat(8),
      len: fc.integer({ min: 1, max: 6 }),
    }),
    { freq: 3 },
  ),
  note: fc.option(fc.constantFrom('', 'checked twice', 'see "source"'), { freq: 3 }),
  seconds: fc.double({ min: 0, max: 1000, noNaN: true }),
  version: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 2 }),
})

const Plan = fc.record({
  items: fc.integer({ min: 1, max: 4 }),
  variants: fc.integer({ min: 1, max: 3 }),
  facts: fc.integer({ min: 1, max: 3 }),
  // "Ann" and "ann" share a column name: the second becomes label_ann_2.
  // "7" is a name an object would list before the others.
  annotators: fc.subarray(['Ann', 'ann', 'Ben', '7', 'Cy "C"'], { minLength: 1 }),
  labels: fc.array(fc.option(LabelPlan, { freq: 2 }), { minLength: 100, maxLength: 100 }),
  gold: fc.array(fc.option(fc.constantFrom('true', 'false'), { freq: 6 }), { minLength: 40, maxLength: 40 }),
  deleted: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  controls: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
  // The first annotator's labels are a dataset's own reference labels, not a person's.
  firstIsSource: fc.boolean(),
  rule: fc.constantFrom('default', 'tie-supported', 'annotator'),
  shuffled: fc.boolean(),
})

type PlanOf = typeof Plan extends fc.Arbitrary<infer P> ? P : never

/**
 * A workspace with the plan's items, labels (cleared ones, evidence, notes), stored gold, control
 * items, a source's labels and deleted units (a unit's deletion can leave an answer with none).
 */
function build(dir: string, plan: PlanOf) {
  const { ws } = seedWorkspace(wsFile(dir), 'other')
  const db = ws.db
  const ds = createDataset(db, { name: 'plan', labelSchema: FAAF_SCHEMA })
  const people = plan.annotators.map((n) => ensureAnnotator(db, n))
  const targets: number[] = []
  const units: number[] = []
  db.transaction(() => {
    for (let i = 0; i < plan.items; i++) {
      // Positions out of insertion order when shuffled: the reading order is by position.
      const position = plan.shuffled ? plan.items - i : i
      const item = ws.content.insertItem(
        ds.id,
        {
          extId: `item-${i}`,
          question: i % 2 ? null : `Question ${i}?`,
          reference: `Reference text of item ${i}, with "quotes".`,
        },
        position,
      )
      const cands = Array.from({ length: plan.variants }, (_, v) =>
        ws.content.insertCandidate(item, {
          variant: `v${v}`,
          text: `Candidate ${v} of item ${i}: an answer.`,
        }),
      )
      for (let f = 0; f < plan.facts; f++) {
        const u = ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${f} of item ${i}` })
        units.push(u)
        for (const c of cands) targets.push(ws.content.targetId(u, c)!)
      }
    }
  })()
  let k = 0
  for (const t of targets)
    for (const p of people) {
      const l = plan.labels[k++ % plan.labels.length]
      if (!l) continue
      ws.labels.save({
        targetId: t,
        annotatorId: p.id,
        verdict: l.verdict,
        seconds: l.seconds,
        ...(l.evidence
          ? {
              evidence: [
                { pane: l.evidence.pane, start: l.evidence.start, end: l.evidence.start + l.evidence.len },
              ],
            }
          : {}),
        ...(l.note !== null ? { note: l.note } : {}),
        ...(l.version !== null ? { guidelinesVersion: l.version } : {}),
      })
    }
  targets.forEach((t, i) => {
    const g = plan.gold[i % plan.gold.length]
    if (g) setGold(db, { targetId: t, verdict: g, source: i % 2 ? 'adjudicated' : 'import' })
  })
  targets.forEach((t, i) => {
    if (plan.controls[i % plan.controls.length])
      db.prepare(
        "INSERT INTO controls (target_id, dataset_id, verdict, source, created_at) VALUES (?, ?, 'true', 'file', '2026-01-01')",
      ).run(t, ds.id)
  })
  if (plan.firstIsSource) db.prepare("UPDATE annotators SET kind = 'source' WHERE id = ?").run(people[0]!.id)
  units.forEach((u, i) => {
    if (plan.deleted[i % plan.deleted.length] && i > 0)
      db.prepare("UPDATE units SET deleted_at = '2026-01-01' WHERE id = ?").run(u)
  })
  if (plan.rule === 'tie-supported')
    setGoldRule(db, ds.id, { kind: 'majority', tie: 'supported', minLabels: 1 })
  if (plan.rule === 'annotator') setGoldRule(db, ds.id, { kind: 'annotator', annotator: people[0]!.name })
  return { ws, datasetId: ds.id, people }
}

/**
 * Each of these tests takes some 4–8 s of CPU (25 workspaces built label by label, each exported
 * three times; 2,300 items). The suite's 60 s limit is wall time: at a load of 25 on two cores a
 * test gets a seventh of a core, and these ran out of time with nothing wrong (twice in the
 * thirty-third session). A ceiling for a hung test, as the e2e tests' 300 s, not a schedule.
 */
const HEAVY = { timeout: 300_000 }

describe('the columnar Parquet export', HEAVY, () => {
  it('writes the same rows, value for value, as the per-target JSON reading it replaced', async () => {
    await fc.assert(
      fc.asyncProperty(Plan, async (plan) => {
        const dir = tmp()
        const { ws, datasetId, people } = build(dir, plan)
        try {
          const expected = referenceRows(ws, datasetId)
          const out = join(dir, 'out')
          const { files } = await exportDataset(ws, { datasetId, format: 'parquet', outDir: out })
          expect(await parquetRows(files[0]!)).toEqual(expected)
          const jsonl = await exportDataset(ws, { datasetId, format: 'jsonl', outDir: join(dir, 'j') })
          const lines = readFileSync(jsonl.files[0]!, 'utf8').split('\n').filter(Boolean)
          expect(lines.map((l) => JSON.parse(l))).toEqual(expected)
          // One annotator's column only.
          const one = people[people.length - 1]!.name
          const single = await exportDataset(ws, {
            datasetId,
            format: 'parquet',
            outDir: join(dir, 's'),
            annotator: one,
          })
          expect(await parquetRows(single.files[0]!)).toEqual(referenceRows(ws, datasetId, one))
        } finally {
          ws.close()
        }
      }),
      { numRuns: 25 },
    )
  })

  it('keeps the reading order across the chunks the targets are read in (a thousand items each)', async () => {
    const dir = tmp()
    const { ws } = seedWorkspace(wsFile(dir), 'other')
    try {
      const db = ws.db
      const ds = createDataset(db, { name: 'many', labelSchema: FAAF_SCHEMA })
      const ann = ensureAnnotator(db, 'Ann')
      const targets: number[] = []
      db.transaction(() => {
        // 2,300 items on 1,150 positions given out of order: items share a position, some
        // across a chunk's edge.
        for (let i = 0; i < 2300; i++) {
          const item = ws.content.insertItem(
            ds.id,
            { extId: `item-${i}`, question: null, reference: `Reference ${i}` },
            (i * 7) % 1150,
          )
          const c = ws.content.insertCandidate(item, { variant: 'v', text: `Candidate ${i}` })
          const u = ws.content.insertUnit(item, { kind: 'fact', text: `Fact of item ${i}` })
          targets.push(ws.content.targetId(u, c)!)
        }
      })()
      targets.forEach((t, i) => {
        if (i % 3 === 0)
          ws.labels.save({ targetId: t, annotatorId: ann.id, verdict: i % 2 ? 'true' : 'false' })
      })
      const expected = referenceRows(ws, ds.id)
      expect(expected).toHaveLength(2300)
      const { files } = await exportDataset(ws, {
        datasetId: ds.id,
        format: 'parquet',
        outDir: join(dir, 'out'),
      })
      expect(await parquetRows(files[0]!)).toEqual(expected)
    } finally {
      ws.close()
    }
  })

  it("tallies the card's label counts and agreement as agreementSummary and the label counts do", () => {
    fc.assert(
      fc.property(Plan, (plan) => {
        const dir = tmp()
        const { ws, datasetId } = build(dir, plan)
        try {
          const db = ws.db
          const labelled = annotatorColumns(db, datasetId)
          const tally = new CardTally(labelled)
          for (const _ of targetRows(db, datasetId, FAAF_SCHEMA, labelled, tally));
          expect(tally.labelled).toEqual(
            new Map(labelCountsByAnnotator(db, datasetId).map((r) => [r.a, r.n])),
          )
          const want = agreementSummary(db, datasetId, labelled)
          const got = tally.agreement()
          expect(got.sharedTargets).toBe(want.sharedTargets)
          expect(got.pairs.map((p) => [p.a, p.b, p.shared])).toEqual(
            want.pairs.map((p) => [p.a, p.b, p.shared]),
          )
          // Sums taken in another order may differ in the last bit; the card prints 3 decimals.
          const close = (a: number | null, b: number | null) =>
            a === null || b === null ? expect(a).toBe(b) : expect(a).toBeCloseTo(b, 12)
          close(got.percentAgreement, want.percentAgreement)
          close(got.fleissKappa, want.fleissKappa)
          for (const [i, p] of got.pairs.entries()) close(p.kappa, want.pairs[i]!.kappa)
        } finally {
          ws.close()
        }
      }),
      { numRuns: 25 },
    )
  })
})
