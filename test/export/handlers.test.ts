import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { uploads } from '../../src/main/annotate/upload'
import { AppContext } from '../../src/main/app/context'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { seedWorkspace } from '../annotate/fixture'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

/** A workspace holding the bundled demo, as a person's laptop would after first start. */
function laptop(dir: string, name: string) {
  mkdirSync(join(dir, name), { recursive: true })
  const ctx = new AppContext(freshWorkspaceFile(join(dir, name, 'w.factlab')), { driver: 'browser' })
  const { datasetId } = loadDemoIfEmpty(ctx.workspace)
  const handlers = buildHandlers(ctx)
  const call = (callName: string, input: unknown) => dispatch(handlers, callName, input)
  return { ctx, datasetId: datasetId!, call }
}

function firstTargets(ctx: AppContext, datasetId: number, n: number): number[] {
  return (
    ctx.workspace.db
      .prepare('SELECT id FROM targets WHERE dataset_id = ? ORDER BY id LIMIT ?')
      .all(datasetId, n) as {
      id: number
    }[]
  ).map((r) => r.id)
}

function labelsOf(ctx: AppContext, annotator: string) {
  return ctx.workspace.db
    .prepare(
      `SELECT i.ext_id || '/' || c.variant || '/' || u.text AS key, l.verdict, l.note FROM labels l
       JOIN annotators a ON a.id = l.annotator_id JOIN targets t ON t.id = l.target_id
       JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id JOIN units u ON u.id = t.unit_id
       WHERE a.name = ? ORDER BY key`,
    )
    .all(annotator)
}

const counts = (ctx: AppContext) =>
  ctx.workspace.db
    .prepare(
      'SELECT (SELECT COUNT(*) FROM labels) AS labels, (SELECT COUNT(*) FROM label_history) AS history, (SELECT COUNT(*) FROM annotators) AS annotators',
    )
    .get()

const value = <T>(r: Awaited<ReturnType<typeof dispatch>>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.value as T
}

describe('exports from the app', () => {
  it('writes a CSV export with a README card into a new folder beside the workspace', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const carol = ensureAnnotator(a.ctx.workspace.db, 'carol')
    const [target] = firstTargets(a.ctx, a.datasetId, 1)
    a.ctx.workspace.labels.save({ targetId: target!, annotatorId: carol.id, verdict: 'not_clear' })

    const { files } = value<{ files: string[] }>(
      await a.call('exports.dataset', { datasetId: a.datasetId, format: 'csv' }),
    )
    expect(files).toHaveLength(2)
    const [data, readme] = files as [string, string]
    expect(data.startsWith(join(dir, 'a', 'exports'))).toBe(true)
    expect(readme.endsWith('README.md')).toBe(true)
    const rows = parse(readFileSync(data, 'utf8'), { columns: true }) as Record<string, string>[]
    const carolColumn = Object.keys(rows[0]!).find((c) => c.includes('carol'))
    expect(carolColumn).toBeDefined()
    expect(rows.filter((r) => r[carolColumn!] === 'not_clear')).toHaveLength(1)
    expect(readFileSync(readme, 'utf8')).toContain('carol')
  })

  it('exports to a typed folder, and refuses a relative path or a folder with files in it', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const out = join(dir, 'mine')
    const done = value<{ files: string[] }>(
      await a.call('exports.dataset', { datasetId: a.datasetId, format: 'wikievalfacts-jsonl', outDir: out }),
    )
    expect(readdirSync(out).sort()).toEqual(['README.md', 'wikievalfacts.jsonl'])
    expect(done.files.every((f) => f.startsWith(out))).toBe(true)

    const again = await a.call('exports.dataset', { datasetId: a.datasetId, format: 'csv', outDir: out })
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining(out) },
    })
    expect(readdirSync(out).sort()).toEqual(['README.md', 'wikievalfacts.jsonl'])

    const relative = await a.call('exports.dataset', { datasetId: a.datasetId, format: 'csv', outDir: 'out' })
    expect(relative).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('"out"') },
    })

    const nobody = await a.call('exports.dataset', {
      datasetId: a.datasetId,
      format: 'csv',
      outDir: join(dir, 'n'),
      annotator: 'nobody',
    })
    expect(nobody).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('nobody') },
    })
  })

  it('bundles my labels and merges them into another workspace made from the same demo', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const carol = ensureAnnotator(a.ctx.workspace.db, 'carol')
    const [t1, t2] = firstTargets(a.ctx, a.datasetId, 2)
    a.ctx.workspace.labels.save({
      targetId: t1!,
      annotatorId: carol.id,
      verdict: 'true',
      note: 'said outright',
    })
    a.ctx.workspace.labels.save({ targetId: t2!, annotatorId: carol.id, verdict: 'false' })

    const bundle = value<{ file: string; labels: number }>(
      await a.call('exports.bundle', { datasetId: a.datasetId, annotatorId: carol.id }),
    )
    expect(bundle.labels).toBe(2)
    expect(bundle.file.startsWith(join(dir, 'a', 'exports'))).toBe(true)
    expect(labelsOf(b.ctx, 'carol')).toEqual([])

    const seen: unknown[] = []
    b.ctx.events.subscribe((name, payload) => seen.push({ name, payload }))
    const upload = {
      source: { fileName: 'carol.bundle.jsonl', contentBase64: readFileSync(bundle.file).toString('base64') },
      datasetId: b.datasetId,
    }
    const report = value(await b.call('exports.mergeBundle', upload))
    expect(report).toMatchObject({ annotator: 'carol', added: 2, updated: 0, unchanged: 0, kept_local: 0 })
    expect(labelsOf(b.ctx, 'carol')).toEqual(labelsOf(a.ctx, 'carol'))
    expect(seen).toContainEqual({
      name: 'labels.changed',
      payload: { datasetId: b.datasetId, targetIds: [] },
    })

    // The same bundle again, this time by path: nothing new.
    const again = value(await b.call('exports.mergeBundle', { source: { path: bundle.file } }))
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 2 })
  })

  it("refuses another dataset's bundle or a damaged one, and changes nothing", async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const other = createDataset(b.ctx.workspace.db, { name: 'other', labelSchema: FAAF_SCHEMA })
    const carol = ensureAnnotator(a.ctx.workspace.db, 'carol')
    const [t1] = firstTargets(a.ctx, a.datasetId, 1)
    a.ctx.workspace.labels.save({ targetId: t1!, annotatorId: carol.id, verdict: 'true' })
    const { file } = value<{ file: string }>(
      await a.call('exports.bundle', { datasetId: a.datasetId, annotatorId: carol.id }),
    )
    const before = counts(b.ctx)

    const foreign = await b.call('exports.mergeBundle', { source: { path: file }, datasetId: other.id })
    expect(foreign).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringMatching(/This bundle is for dataset .* "other" here/),
      },
    })

    const damaged = join(dir, 'damaged.bundle.jsonl')
    writeFileSync(damaged, readFileSync(file, 'utf8').split('\n')[0]!)
    const truncated = await b.call('exports.mergeBundle', {
      source: { fileName: 'damaged.bundle.jsonl', contentBase64: readFileSync(damaged).toString('base64') },
    })
    expect(truncated).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringMatching(/^damaged\.bundle\.jsonl announces 1 label but holds 0/),
      },
    })
    expect(counts(b.ctx)).toEqual(before)
    expect(labelsOf(b.ctx, 'carol')).toEqual([])
  })

  it('merges an uploaded bundle once and then removes the upload', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const b = laptop(dir, 'b')
    const carol = ensureAnnotator(a.ctx.workspace.db, 'carol')
    const [t1] = firstTargets(a.ctx, a.datasetId, 1)
    a.ctx.workspace.labels.save({ targetId: t1!, annotatorId: carol.id, verdict: 'true' })
    const { file } = value<{ file: string }>(
      await a.call('exports.bundle', { datasetId: a.datasetId, annotatorId: carol.id }),
    )
    const pending = uploads.begin('carol.bundle.jsonl', dir)
    copyFileSync(file, pending.file)
    const upload = uploads.register(pending, 0)

    const report = value(await b.call('exports.mergeBundle', { source: { uploadId: upload.id } }))
    expect(report).toMatchObject({ annotator: 'carol', added: 1 })
    expect(existsSync(upload.dir)).toBe(false)
    const again = await b.call('exports.mergeBundle', { source: { uploadId: upload.id } })
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('choose the file again') },
    })
    expect(labelsOf(b.ctx, 'carol')).toEqual(labelsOf(a.ctx, 'carol'))
  })

  it('never writes a bundle over an existing file', async () => {
    const dir = tmp()
    const a = laptop(dir, 'a')
    const taken = join(dir, 'taken.jsonl')
    writeFileSync(taken, 'mine')
    const annotatorId = ensureAnnotator(a.ctx.workspace.db, 'carol').id
    const r = await a.call('exports.bundle', { datasetId: a.datasetId, annotatorId, out: taken })
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(readFileSync(taken, 'utf8')).toBe('mine')
    expect(existsSync(join(dir, 'a', 'exports'))).toBe(false)
  })

  it("writes a run's verdicts beside the workspace, or as CSV where asked", async () => {
    const dir = tmp()
    const { ctx, items, addVerdict } = seedWorkspace(dir)
    const runId = (ctx.workspace.db.prepare('SELECT id FROM runs').get() as { id: number }).id
    addVerdict(items[0]!.targets.answer![0]!, 'true')
    addVerdict(items[1]!.targets.poor_answer![1]!, 'false')
    const handlers = buildHandlers(ctx)

    const jsonl = value<{ file: string; rows: number }>(
      await dispatch(handlers, 'exports.verdicts', { runId }),
    )
    expect(jsonl.rows).toBe(2)
    expect(jsonl.file.startsWith(join(dir, 'exports', `run-${runId}-`))).toBe(true)
    const lines = readFileSync(jsonl.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.item_id, l.variant, l.verdict])).toEqual([
      ['q0', 'answer', 'true'],
      ['q1', 'poor_answer', 'false'],
    ])

    const out = join(dir, 'picked', 'verdicts.csv')
    value(await dispatch(handlers, 'exports.verdicts', { runId, out }))
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[]
    expect(rows.map((r) => r.reason)).toEqual(['because', 'because'])

    const missing = await dispatch(handlers, 'exports.verdicts', {
      runId: runId + 99,
      out: join(dir, 'x.jsonl'),
    })
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(existsSync(join(dir, 'x.jsonl'))).toBe(false)
  })
})
