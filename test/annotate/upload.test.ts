import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { withUploadedFile } from '../../src/main/annotate/upload'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace } from './fixture'

const tmp = tmpDirs()
const b64 = (s: string) => Buffer.from(s).toString('base64')

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
    const { ctx } = seedWorkspace(tmp())
    const handlers = buildHandlers(ctx)
    const path = await dispatch(handlers, 'datasets.importPreview', {
      fileName: '../x.jsonl',
      contentBase64: '',
    })
    expect(path).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    const bad = await dispatch(handlers, 'datasets.import', {
      fileName: 'empty.jsonl',
      contentBase64: b64('{"nothing": "useful"}\n'),
    })
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('empty.jsonl') },
    })
    expect((bad as { error: { message: string } }).error.message).not.toContain('factlab-upload-')
  })
})
