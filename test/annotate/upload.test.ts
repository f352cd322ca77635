import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { uploads, withUploadedFile } from '../../src/main/annotate/upload'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace } from './fixture'

const tmp = tmpDirs()
const b64 = (s: string) => Buffer.from(s).toString('base64')
const QAGS = 'test/fixtures/import/qags.jsonl'
const qagsItems = readFileSync(QAGS, 'utf8').trim().split('\n').length

/** A file as the server leaves it after a browser upload. */
function uploaded(name: string, content: string | { copyOf: string }, dir: string) {
  const pending = uploads.begin(name, dir)
  if (typeof content === 'string') writeFileSync(pending.file, content)
  else copyFileSync(content.copyOf, pending.file)
  return uploads.register(pending, 0)
}

function handlersIn(dir: string) {
  const { ctx } = seedWorkspace(dir)
  const handlers = buildHandlers(ctx)
  const datasets = () =>
    (
      ctx.workspace.db.prepare("SELECT name FROM datasets WHERE state = 'ready'").all() as { name: string }[]
    ).map((d) => d.name)
  return { handlers, datasets }
}

describe('uploaded files', () => {
  it('hands the importer the bytes under the original name and removes them afterwards', async () => {
    let seen = ''
    const text = await withUploadedFile('data.jsonl', b64('{"a": 1}\n'), (file) => {
      seen = file
      expect(file.endsWith('/data.jsonl')).toBe(true)
      return readFileSync(file, 'utf8')
    })
    expect(text).toBe('{"a": 1}\n')
    expect(existsSync(seen)).toBe(false)
  })

  it('names the file as the person knows it when the importer refuses it', async () => {
    const failing = withUploadedFile('broken.csv', b64('x'), (file) => {
      throw new Error(`${file}, line 2: field "reference" is empty`)
    })
    await expect(failing).rejects.toThrow(/^broken\.csv, line 2: field "reference" is empty$/)
  })

  it('refuses a file name that is a path, and reports an importer refusal as bad input', async () => {
    const { handlers } = handlersIn(tmp())
    const path = await dispatch(handlers, 'datasets.importPreview', {
      source: { fileName: '../x.jsonl', contentBase64: '' },
    })
    expect(path).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    for (const fileName of ['..', '.', 'a\0b.jsonl']) {
      const folder = await dispatch(handlers, 'datasets.import', { source: { fileName, contentBase64: '' } })
      expect(folder).toMatchObject({
        ok: false,
        error: { code: 'bad_input', message: expect.stringContaining('a file name, not a path') },
      })
    }
    const bad = await dispatch(handlers, 'datasets.import', {
      source: { fileName: 'empty.jsonl', contentBase64: b64('{"nothing": "useful"}\n') },
    })
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('empty.jsonl') },
    })
    expect((bad as { error: { message: string } }).error.message).not.toContain('factlab-upload-')
  })
})

describe('importing from a path or an upload', () => {
  it('imports straight from a path on this machine and leaves the file alone', async () => {
    const dir = tmp()
    const { handlers, datasets } = handlersIn(dir)
    const file = join(dir, 'qags.jsonl')
    copyFileSync(QAGS, file)
    const preview = await dispatch(handlers, 'datasets.importPreview', { source: { path: file }, rows: 2 })
    expect(preview).toMatchObject({ ok: true, value: { preset: 'qags' } })
    const report = await dispatch(handlers, 'datasets.import', {
      source: { path: file },
      datasetName: 'from disk',
    })
    expect(report).toMatchObject({ ok: true, value: { dataset: 'from disk', items: qagsItems } })
    expect(datasets()).toContain('from disk')
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(QAGS, 'utf8'))
  })

  it('refuses a missing path or a folder, naming it, and imports nothing', async () => {
    const dir = tmp()
    const { handlers, datasets } = handlersIn(dir)
    const before = datasets()
    const missing = join(dir, 'gone', 'labels.jsonl')
    const gone = await dispatch(handlers, 'datasets.import', { source: { path: missing } })
    expect(gone).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining(`${missing} does not exist`) },
    })
    const folder = await dispatch(handlers, 'datasets.importPreview', { source: { path: dir } })
    expect(folder).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining(`${dir} is a folder`) },
    })
    const relative = await dispatch(handlers, 'datasets.import', { source: { path: 'qags.jsonl' } })
    expect(relative).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(datasets()).toEqual(before)
  })

  it('previews an upload as often as asked, imports it once, then removes it', async () => {
    const dir = tmp()
    const { handlers, datasets } = handlersIn(dir)
    const upload = uploaded('qags.jsonl', { copyOf: QAGS }, dir)
    for (const rows of [1, 3])
      expect(
        await dispatch(handlers, 'datasets.importPreview', { source: { uploadId: upload.id }, rows }),
      ).toMatchObject({ ok: true, value: { preset: 'qags' } })
    const report = await dispatch(handlers, 'datasets.import', {
      source: { uploadId: upload.id },
      datasetName: 'uploaded',
    })
    expect(report).toMatchObject({ ok: true, value: { items: qagsItems } })
    expect(datasets()).toContain('uploaded')
    expect(existsSync(upload.dir)).toBe(false)
    const again = await dispatch(handlers, 'datasets.import', { source: { uploadId: upload.id } })
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('choose the file again') },
    })
  })

  it('removes a refused upload too, and names it as the person knows it', async () => {
    const dir = tmp()
    const { handlers, datasets } = handlersIn(dir)
    const before = datasets()
    const upload = uploaded('broken.jsonl', '{"nothing": "useful"}\n', dir)
    const bad = await dispatch(handlers, 'datasets.import', { source: { uploadId: upload.id } })
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/^broken\.jsonl/) },
    })
    expect((bad as { error: { message: string } }).error.message).not.toContain(upload.dir)
    expect(existsSync(upload.dir)).toBe(false)
    expect(datasets()).toEqual(before)
  })

  it('sweeps uploads nobody used within the hour, and keeps newer ones', () => {
    const dir = tmp()
    const old = uploads.register(uploads.begin('old.jsonl', dir), 0, Date.now() - 2 * 60 * 60 * 1000)
    const fresh = uploaded('fresh.jsonl', '{}\n', dir)
    uploads.sweep()
    expect(uploads.get(old.id)).toBeUndefined()
    expect(existsSync(old.dir)).toBe(false)
    expect(uploads.get(fresh.id)).toBeDefined()
    uploads.discard(fresh.id)
    expect(existsSync(fresh.dir)).toBe(false)
  })
})

describe('an upload used by two calls at once', () => {
  it('is imported once: the second import is refused, and the file goes when the last reader is done', async () => {
    const dir = tmp()
    const { handlers, datasets } = handlersIn(dir)
    const upload = uploaded('qags.jsonl', { copyOf: QAGS }, dir)
    const [first, second] = await Promise.all([
      dispatch(handlers, 'datasets.import', { source: { uploadId: upload.id }, datasetName: 'one' }),
      dispatch(handlers, 'datasets.import', { source: { uploadId: upload.id }, datasetName: 'two' }),
    ])
    expect(first).toMatchObject({ ok: true, value: { items: qagsItems } })
    expect(second).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('choose the file again') },
    })
    expect(datasets().filter((n) => n === 'one' || n === 'two')).toEqual(['one'])
    expect(existsSync(upload.dir)).toBe(false)
  })

  it('outlives a discard (the server closing) while an import still reads it, then goes', async () => {
    const dir = tmp()
    const upload = uploaded('data.jsonl', '{"a": 1}\n', dir)
    const read = await uploads.use(upload.id, false, (u) => {
      uploads.discard(upload.id)
      return readFileSync(u.file, 'utf8')
    })
    expect(read).toBe('{"a": 1}\n')
    expect(uploads.get(upload.id)).toBeUndefined()
    expect(existsSync(upload.dir)).toBe(false)
  })
})
