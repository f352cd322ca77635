import { cpSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { getDataset } from '../../src/main/store/repos/datasets'
import { testApps } from '../helpers/app'
import { SETTING } from '../helpers/refcheckerRelease'
import { workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()
const app = testApps()

/** Two settings of RefChecker's release, with the same two models' files in each. */
function twoSettings(): { root: string; relative: string[] } {
  const root = join(dir(), 'release')
  const relative: string[] = []
  for (const setting of ['noisy_context', 'zero_context']) {
    mkdirSync(join(root, setting), { recursive: true })
    for (const name of ['nq_chatgpt_answers.json', 'nq_claude2_answers.json']) {
      cpSync(join(SETTING, name), join(root, setting, name))
      relative.push(`release/${setting}/${name}`)
    }
  }
  return { root, relative }
}

describe('a folder picked in the import dialog and the same folder given to the CLI', () => {
  it('make the same variants and the same dataset, though uploads keep only their file names', async () => {
    const { root, relative } = twoSettings()
    const cli = await importFile(newWs(), { file: root, preset: 'refchecker' })
    expect(cli.files!.map((f) => f.variant)).toEqual([
      'noisy_context/nq_chatgpt',
      'noisy_context/nq_claude2',
      'zero_context/nq_chatgpt',
      'zero_context/nq_claude2',
    ])
    // As browser mode sends them: bytes under a plain file name, the place in the folder beside.
    const uploads = relative.map((r) => ({
      fileName: r.split('/').at(-1)!,
      contentBase64: readFileSync(join(root, '..', r)).toString('base64'),
    }))
    const a = app()
    const report = await a.value<{ datasetId: number; files: { file: string; variant: string }[] }>(
      'datasets.import',
      {
        source: uploads[0],
        moreSources: uploads.slice(1),
        preset: 'refchecker',
        datasetName: cli.dataset,
        pickedPaths: relative,
      },
    )
    expect(report.files.map((f) => f.variant)).toEqual(cli.files!.map((f) => f.variant))
    expect(report.files.map((f) => f.file)).toEqual(relative)
    const ds = getDataset(a.ctx.workspace.db, report.datasetId)
    expect(ds.source.metadata).toEqual({ settings: ['noisy_context', 'zero_context'], source: 'nq' })
  })

  it('refuses picked paths that do not pair with the files, importing nothing', async () => {
    const a = app()
    const r = await a.call('datasets.import', {
      source: { fileName: 'a.jsonl', contentBase64: Buffer.from('{"reference":"x"}\n').toString('base64') },
      pickedPaths: ['one/a.jsonl', 'two/b.jsonl'],
    })
    expect(JSON.stringify(r)).toContain('pickedPaths names 2 files for 1 source:')
    expect(await a.value<unknown[]>('datasets.list', {})).toEqual([])
  })
})
