import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { labelColumnBase } from '../../src/main/export/targetRows'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const PEOPLE = ['李', '王', 'Zoë 李', '👩‍🔬 ana', 'ana', 'عمر']

/** A QAGS-layout file with one sentence, each of PEOPLE answering it. */
function qagsFile(dir: string): string {
  const file = join(dir, 'people.jsonl')
  const responses = PEOPLE.map((worker_id) => ({ worker_id, response: 'yes' }))
  const row = {
    article: 'Zola wrote Germinal.',
    summary_sentences: [{ sentence: 'Zola wrote it.', responses }],
  }
  writeFileSync(file, `${JSON.stringify(row)}\n`)
  return file
}

describe('label column names keep the letters of every script', () => {
  it('keeps Unicode letters and digits, replaces only what a column name cannot hold', () => {
    expect(labelColumnBase('李')).toBe('label_李')
    expect(labelColumnBase('Zoë 李')).toBe('label_zoë_李')
    // The same name typed with a combining diaeresis gives the same column.
    expect(labelColumnBase('Zoe\u0308 李')).toBe('label_zoë_李')
    expect(labelColumnBase('👩‍🔬 ana')).toBe('label_ana')
    expect(labelColumnBase('عمر')).toBe('label_عمر')
    expect(labelColumnBase('अनु2')).toBe('label_अनु2')
    expect(labelColumnBase('🙂')).toBe('label_annotator')
  })

  it('the CLI export names each person’s column by their name, never two alike, and imports them back', async () => {
    const dir = tmp()
    const ws = join(dir, 'w.factlab')
    expect((await cli(['import', qagsFile(dir), '--workspace', ws, '--dataset', 'people'])).code).toBe(0)
    const out = join(dir, 'out')
    const r = await cli(['export', '--workspace', ws, '--dataset', 'people', '--format', 'csv', '--out', out])
    expect(r.code, r.err).toBe(0)
    const header = readFileSync(join(out, 'data.csv'), 'utf8').split('\n')[0]!.split(',')
    const labels = header.filter((c) => c.startsWith('label_'))
    expect(labels.sort()).toEqual(
      ['label_ana', 'label_ana_2', 'label_zoë_李', 'label_李', 'label_王', 'label_عمر'].sort(),
    )

    const back = join(dir, 'back.factlab')
    const imported = await cli(['import', join(out, 'data.csv'), '--workspace', back, '--json'])
    expect(imported.code, imported.err).toBe(0)
    const list = await cli(['annotators', '--workspace', back])
    for (const name of PEOPLE) expect(list.out).toContain(name)
  })
})
