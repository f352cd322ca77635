import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prettyName } from '../../src/main/import/cardName'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { seedProject } from './project'

const tmp = tmpDirs()
const app = testApps()

describe("re-importing FactLab's own export", () => {
  it('names the dataset as its card does, not after the file every export calls data', async () => {
    const dir = tmp()
    const lead = join(dir, 'lead.factlab')
    const { datasetId } = seedProject(lead)
    const a = app(lead)
    const name = (await a.value<{ id: number; name: string }[]>('datasets.names', {})).find(
      (d) => d.id === datasetId,
    )!.name
    const { files } = await a.value<{ files: string[] }>('exports.dataset', {
      datasetId,
      format: 'jsonl',
      outDir: join(dir, 'out'),
    })
    expect(files[0]).toMatch(/data\.jsonl$/)
    const r = await cli(['import', files[0]!, '--workspace', join(dir, 'colleague.factlab')])
    expect(r.err).toBe('')
    expect(r.out).toContain(`Imported "${name}"`)
  })

  it("reads the name from a card's front matter, and none from a README without one", () => {
    expect(prettyName('# Notes')).toBeNull()
    expect(prettyName('---\npretty_name: "Towns: round 2"\nlicense: other\n---\n')).toBe('Towns: round 2')
    expect(prettyName("---\npretty_name: 'it''s'\n---\n")).toBe("it's")
  })
})
