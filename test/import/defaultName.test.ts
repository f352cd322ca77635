import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultDatasetName } from '../../src/shared/datasetName'
import { cli } from '../helpers/cli'
import { MODELS, modelFile, SETTING } from '../helpers/refcheckerRelease'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('the default dataset name, the same in the CLI and the import dialog', () => {
  it('a lone file: its stem; several from one folder: the folder; from nowhere known: the first and N more', () => {
    expect(defaultDatasetName(['/data/qags.jsonl'])).toBe('qags')
    expect(defaultDatasetName(['qags.jsonl'])).toBe('qags')
    // A browser's folder picker gives each file's place in the picked folder.
    expect(defaultDatasetName(MODELS.map((m) => `zero_context/nq_${m}_answers.json`))).toBe('zero_context')
    expect(defaultDatasetName(['C:\\data\\zero_context\\a.json', 'C:\\data\\zero_context\\b.json'])).toBe(
      'zero_context',
    )
    // Files picked one by one in a browser come with no folder.
    expect(defaultDatasetName(['a.json', 'b.json', 'c.json'])).toBe('a and 2 more')
    expect(defaultDatasetName(['/x/a.json', '/y/b.json'])).toBe('a and 1 more')
  })

  it('the CLI names a folder, or files from one folder, after the folder', async () => {
    const ws = join(tmp(), 'w.factlab')
    const folder = await cli(['import', SETTING, '--workspace', ws, '--json'])
    expect(folder.code, folder.err).toBe(0)
    expect(JSON.parse(folder.out).dataset).toBe('zero_context')
    const ws2 = join(tmp(), 'w.factlab')
    const files = await cli(['import', ...MODELS.map(modelFile), '--workspace', ws2, '--json'])
    expect(files.code, files.err).toBe(0)
    expect(JSON.parse(files.out).dataset).toBe('zero_context')
  })
})
