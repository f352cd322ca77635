import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRESET_NAMES } from '../../src/shared/importMapping'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const DEMO = 'Demo: WikiEval-style'

const demoWorkspace = () => demoWorkspaceIn(tmp())

describe('CLI messages say what to do', () => {
  it('import --preset names the presets it takes', async () => {
    const r = await cli(['import', 'x.csv', '--preset', 'nope', '--workspace', join(tmp(), 'w.factlab')])
    expect(r.code).toBe(2)
    expect(r.err).toBe(`factlab: --preset must be one of ${PRESET_NAMES.join(', ')}, got "nope"\n`)
    const f = await cli(['import', 'x.csv', '--format', 'xls', '--workspace', join(tmp(), 'w.factlab')])
    expect(f.err).toBe('factlab: --format must be one of jsonl, json, csv, tsv, parquet, got "xls"\n')
  })

  it('label with both --verdict and --clear says not both; with neither, which to give', async () => {
    const file = demoWorkspace()
    const at = ['--dataset', DEMO, '--item', 'demo-01', '--variant', 'answer', '--unit', '1']
    const both = await cli([
      'label',
      ...at,
      '--verdict',
      'true',
      '--clear',
      '--annotator',
      'alex',
      '--workspace',
      file,
    ])
    expect(both.code).toBe(2)
    expect(both.err).toBe('factlab: give --verdict <v> or --clear, not both\n')
    const neither = await cli(['label', ...at, '--annotator', 'alex', '--workspace', file])
    expect(neither.code).toBe(2)
    expect(neither.err).toBe('factlab: give --verdict <v> or --clear\n')
  })

  it('units edit with the text the unit already has says nothing changed (exit 0)', async () => {
    const file = demoWorkspace()
    const at = ['--dataset', DEMO, '--item', 'demo-01', '--unit', '1', '--workspace', file]
    const list = await cli([
      'units',
      'list',
      '--dataset',
      DEMO,
      '--item',
      'demo-01',
      '--workspace',
      file,
      '--json',
    ])
    const text = (JSON.parse(list.out) as { units: { text: string }[] }).units[0]!.text
    const same = await cli(['units', 'edit', ...at, '--text', text])
    expect(same.code, same.err).toBe(0)
    expect(same.out).toBe(`Unit 1 unchanged: it already reads "${text}"\n`)
    const json = await cli(['units', 'edit', ...at, '--text', text, '--json'])
    expect(JSON.parse(json.out)).toMatchObject({ changed: false, versioned: false })
    const edited = await cli(['units', 'edit', ...at, '--text', `${text} (edited)`])
    expect(edited.out).toMatch(/^Unit 1 now at version 2/)
  })

  it('factlab calls gives every call a description of its own, not its name', async () => {
    const r = await cli(['calls', '--json'])
    const docs = JSON.parse(r.out) as { name: string; description: string }[]
    const placeholders = docs.filter((d) => d.description === d.name.replace('.', ': ')).map((d) => d.name)
    expect(placeholders).toEqual([])
  })
})
