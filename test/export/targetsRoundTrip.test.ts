import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedProject, whatPeopleSee } from './project'

const tmp = tmpDirs()
const app = testApps()

describe("FactLab's own export (jsonl, csv, parquet) imports back to the same dataset", () => {
  it.each(['jsonl', 'csv', 'parquet'] as const)(
    '%s: same items, answers, units, labels by name, gold, controls, and the same figures',
    async (format) => {
      const dir = tmp()
      const lead = join(dir, 'lead.factlab')
      const { datasetId } = seedProject(lead)
      const a = app(lead)
      const before = await whatPeopleSee(a, datasetId)
      // The project is what it should be: several people, a source, decisions and controls.
      expect(before.summary.labelledBy.map((p) => p.name)).toEqual(['Ana', 'ben', 'Cara Zed', 'release'])
      expect(before.gold.map((g) => g.source)).toEqual(['adjudicated', 'adjudicated', 'import'])
      expect(before.controls).toHaveLength(3)
      expect(before.goldRule.rule).toMatchObject({ tie: 'unsupported', minLabels: 2 })
      expect(before.itemMetadata).toHaveLength(1)
      // Labels given before any guidelines, under version 1 and under version 2; a plan with rates.
      const versions = new Set(before.labels.map((l) => l.guidelines_version))
      expect(versions).toEqual(new Set([null, 1, 2]))
      expect(before.guidelines.history).toHaveLength(1)
      expect(before.agreementByVersion[0]).not.toEqual(before.agreementByVersion[1])
      expect(before.dashboard).toMatchObject({
        plan: { planned: true, k: 2, policy: 'fixed', seed: 7, controlRate: 0.1, hourlyRate: 20 },
      })
      expect(before.assignments.filter((r) => r.name === 'Dee').length).toBeGreaterThan(0)
      // Some labels came past k, and not all by the same people: the round trip must keep which.
      const pastK = (d: typeof before) =>
        (d.dashboard as { annotators: { name: string; overK: number }[] }).annotators.map((p) => [
          p.name,
          p.overK,
        ])
      expect(pastK(before).filter(([, n]) => (n as number) > 0).length).toBeGreaterThan(1)
      expect(before.answers).toContainEqual({
        answer: 'q4 / answer',
        text: 'An answer waiting for its facts.',
        metadata: '{}',
      })

      const { files } = await a.value<{ files: string[] }>('exports.dataset', {
        datasetId,
        format,
        outDir: join(dir, 'out'),
      })
      // Into another workspace, as a colleague would: the preset is found from the columns.
      const b = app(join(dir, 'colleague.factlab'))
      const report = await b.value<{ datasetId: number; labels: number; annotators: number }>(
        'datasets.import',
        { source: { path: files[0]! }, datasetName: 'wiki' },
      )
      expect(report.labels).toBe(before.labels.length)
      // The four who labelled, and Dee, whom the plan names before her first label.
      expect(report.annotators).toBe(5)
      const after = await whatPeopleSee(b, report.datasetId)
      expect(after).toEqual(before)
      // pandas reads the guidelines and the plan from the first row; the other rows leave them empty.
      if (format === 'jsonl') {
        const rows = readFileSync(files[0]!, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
        expect(JSON.parse(rows[0]!.project_plan as string)).toMatchObject({ k: 2, hourly_rate: 20 })
        expect(rows.slice(1).every((r) => r.guidelines === null && r.project_plan === null)).toBe(true)
        // A file written before label times were exported still imports: its labels take the
        // import's time.
        const older = join(dir, 'older.jsonl')
        writeFileSync(older, rows.map(({ labelled_at: _, ...r }) => `${JSON.stringify(r)}\n`).join(''))
        const c = app(join(dir, 'older.factlab'))
        const r = await c.value<{ labels: number }>('datasets.import', { source: { path: older } })
        expect(r.labels).toBe(before.labels.length)
      }
      // The card says the file comes back whole, and states the gold rule.
      const card = readFileSync(files[1]!, 'utf8')
      expect(card).toContain('FactLab imports this file back as it was')
      expect(card).toContain(`Gold rule (where nobody adjudicated): ${before.goldRule.description}.`)
      // Exported again from the colleague's workspace, the card gives the same figures.
      const again = await b.value<{ files: string[] }>('exports.dataset', {
        datasetId: report.datasetId,
        format,
        outDir: join(dir, 'again'),
      })
      // Parquet's byte count may differ by its encoder's choices; every figure and row count may not.
      const figures = (text: string) =>
        text.replace(/Exported from FactLab on \S+/, '').replace(/(num_bytes|_size): \d+/g, '$1')
      expect(figures(readFileSync(again.files[1]!, 'utf8'))).toEqual(figures(card))
    },
  )

  it("keeps the rates people already have here and says what the file's plan pays them", async () => {
    const dir = tmp()
    const lead = join(dir, 'lead.factlab')
    const { datasetId } = seedProject(lead)
    const a = app(lead)
    const { files } = await a.value<{ files: string[] }>('exports.dataset', {
      datasetId,
      format: 'csv',
      outDir: join(dir, 'out'),
    })
    // The colleague already pays Ana 40 an hour and ben 20 (the file's dataset rate for him).
    const b = app(join(dir, 'colleague.factlab'))
    const older = createDataset(b.ctx.workspace.db, { name: 'older', labelSchema: FAAF_SCHEMA })
    await b.value('projects.setPlan', {
      datasetId: older.id,
      k: 1,
      annotators: [
        { name: 'Ana', hourlyRate: 40 },
        { name: 'ben', hourlyRate: 20 },
      ],
    })
    const report = await b.value<{ datasetId: number; warnings: { kind: string; message: string }[] }>(
      'datasets.import',
      { source: { path: files[0]! } },
    )
    expect(report.warnings.filter((w) => w.kind === 'plan').map((w) => w.message)).toEqual([
      `the file's plan pays "Ana" 30 an hour on this dataset; "older" keeps 40 (each dataset has its own rates)`,
    ])
    const rates = async (id: number) =>
      (
        await b.value<{ annotators: { name: string; hourlyRate: number | null }[] }>('projects.plan', {
          datasetId: id,
        })
      ).annotators.map((p) => [p.name, p.hourlyRate])
    expect(await rates(older.id)).toEqual([
      ['Ana', 40],
      ['ben', 20],
    ])
    expect(await rates(report.datasetId)).toEqual([
      ['Ana', 30],
      ['Cara Zed', 25.5],
      ['Dee', 18],
      ['ben', null],
    ])
  })

  it('imports a file written by an earlier FactLab (no dataset_schema column) with a message saying what to do', async () => {
    const dir = tmp()
    const lead = join(dir, 'lead.factlab')
    const { datasetId } = seedProject(lead)
    const a = app(lead)
    const { files } = await a.value<{ files: string[] }>('exports.dataset', {
      datasetId,
      format: 'jsonl',
      outDir: join(dir, 'out'),
    })
    const old = join(dir, 'old.jsonl')
    const lines = readFileSync(files[0]!, 'utf8').trim().split('\n')
    writeFileSync(
      old,
      lines
        .map((l) => {
          const { dataset_schema: _, ...rest } = JSON.parse(l) as Record<string, unknown>
          return JSON.stringify(rest)
        })
        .join('\n'),
    )
    const b = app(join(dir, 'colleague.factlab'))
    const r = await b.call('datasets.import', { source: { path: old } })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/no dataset_schema column.*Export the dataset again/)
    expect(await b.value<unknown[]>('datasets.list', {})).toEqual([])
  })
})

describe('the FactLab layout chosen for a file that is not a FactLab export', () => {
  it('says plainly that the file is not one, and imports nothing', async () => {
    const dir = tmp()
    const notes = join(dir, 'notes.jsonl')
    writeFileSync(notes, `${JSON.stringify({ title: 'meeting', text: 'we agreed on the schema' })}\n`)
    const a = app(join(dir, 'lead.factlab'))
    const r = await a.call('datasets.import', { source: { path: notes }, preset: 'factlab' })
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.message).toMatch(/This file is not a FactLab export: it has the columns title, text/)
      expect(r.error.message).not.toMatch(/earlier FactLab|Export the dataset again/)
    }
    expect(await a.value<unknown[]>('datasets.list', {})).toEqual([])
  })
})

describe('the WikiEvalFacts layout says it holds one label per fact and answer', () => {
  it('in the export’s message (app and CLI) and in its card, and imports back to just those labels', async () => {
    const dir = tmp()
    const lead = join(dir, 'lead.factlab')
    const { datasetId } = seedProject(lead)
    const a = app(lead)
    // The published layout: facts in three answers (no sentence, no answer without facts).
    a.ctx.workspace.db.prepare("DELETE FROM items WHERE ext_id = 'q4'").run()
    a.ctx.workspace.db.prepare("UPDATE units SET deleted_at = '2026-01-01' WHERE kind = 'sentence'").run()
    const before = await whatPeopleSee(a, datasetId)
    const people = before.summary.labelledBy
    const labels = people.reduce((n, p) => n + p.labelled, 0)
    const r = await a.value<{ files: string[]; note: string }>('exports.dataset', {
      datasetId,
      format: 'wikievalfacts-jsonl',
      outDir: join(dir, 'out'),
    })
    const gold = Number(/this export has (\d+) gold verdicts/.exec(r.note)?.[1])
    expect(r.note).toContain('holds one label per fact and answer, as the published dataset does')
    expect(r.note).toContain(
      `Left out: who gave which of the workspace's ${labels} labels by ${people.length} annotators`,
    )
    expect(r.note).toContain('come back whole only from the jsonl, csv or parquet layout')
    const card = readFileSync(r.files[1]!, 'utf8')
    expect(card).toContain('This layout holds **one label per fact and answer**')
    const b = app(join(dir, 'colleague.factlab'))
    const back = await b.value<{ labels: number; annotators: number }>('datasets.import', {
      source: { path: r.files[0]! },
    })
    expect(back).toMatchObject({ labels: gold, annotators: 1 })
    expect(gold).toBeGreaterThan(0)
    a.ctx.close()
    // The CLI prints the same words under the files it wrote.
    const printed = await cli([
      'export',
      '--workspace',
      lead,
      '--dataset',
      'wiki',
      '--format',
      'wikievalfacts-csv',
      '--out',
      join(dir, 'cli'),
    ])
    expect(printed.code).toBe(0)
    expect(printed.out).toContain(`this export has ${gold} gold verdicts`)
  })
})
