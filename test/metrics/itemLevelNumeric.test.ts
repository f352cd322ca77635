import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

/** On a numeric scale (SummEval layout) the human item score is the mean of the annotators' numbers. */
const dir = tmpDirs()
const FIXTURE = join(__dirname, '..', 'fixtures', 'import', 'summeval.jsonl')

describe('item-level scores on a numeric scale', () => {
  it('average the annotators, and the lexical baseline answers on the scale', async () => {
    const db = join(dir(), 'ws.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', db, '--dataset', 'se'])).code).toBe(0)
    const run = await cli([
      'judge',
      'run',
      '--workspace',
      db,
      '--dataset',
      'se',
      '--provider',
      'lexical',
      '--model',
      'rouge1',
      '--method',
      'lexical',
      '--json',
    ])
    expect(run.code, run.err).toBe(0)
    expect(JSON.parse(run.out)).toMatchObject({ na: 0, errors: 0 })
    const out = JSON.parse((await cli(['metrics', '--workspace', db, '--dataset', 'se', '--json'])).out)
    const il = out.item_level
    const human = il.series.find((s: { source: string }) => s.source === 'gold')
    expect(human.label).toBe('human mean')
    // doc-a / M1: experts 5, 5, 5 → 5. The crowd's 4, 5, 5, 4, 5 are not raters (they would make 4.75).
    expect(human.values[0]).toBeCloseTo(5, 12)
    expect(human.units[0]).toBe(1)
    const judge = il.correlations.filter((c: { source: string }) => c.source === 'judge')
    expect(judge.map((c: { score: string }) => c.score).sort()).toEqual([
      'rouge1',
      'rouge2',
      'rougeL',
      'verdict',
    ])
    for (const c of judge) expect(c.n).toBe(il.items.length)
  })
})
