import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openWorkspace } from '../../src/main/store/connection'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

/**
 * A QAGS-layout file written for FactLab (three workers' yes/no per summary sentence): the
 * dataset takes DCR's schema, the lexical baseline answers in it, and `metrics --json` carries item-level scores and
 * correlations for it.
 */
const dir = tmpDirs()
const FIXTURE = join(__dirname, '..', 'fixtures', 'itemLevel', 'qags_small.jsonl')

interface ItemJson {
  items: { candidate: number; variant: string }[]
  series: {
    source: string
    run: number | null
    unit_kind: string
    score: string
    values: (number | null)[]
  }[]
  correlations: {
    source: string
    run: number | null
    score: string
    n: number
    pearson: number | null
    pearson_ci: [number, number] | null
    spearman: number | null
    kendall_tau_b: number | null
    kendall_tau_b_ci: [number, number] | null
    too_few_items: boolean
    by_variant: Record<string, { n: number }>
  }[]
  score_definitions: Record<string, string>
}

describe('item-level evaluation on a QAGS-layout dataset', () => {
  it('lexical verdicts are consistent/inconsistent with no N/A, and metrics --json has item-level correlations', async () => {
    const db = join(dir(), 'ws.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', db, '--dataset', 'qags'])).code).toBe(0)
    const run = await cli([
      'judge',
      'run',
      '--workspace',
      db,
      '--dataset',
      'qags',
      '--provider',
      'lexical',
      '--model',
      'rouge2',
      '--method',
      'lexical',
      '--lexical-tokens',
      'ascii',
      '--json',
    ])
    expect(run.code, run.err).toBe(0)
    expect(JSON.parse(run.out)).toMatchObject({ status: 'done', verdicts: 18, na: 0, errors: 0 })
    const w = openWorkspace(db)
    const words = w.prepare('SELECT DISTINCT verdict FROM verdicts ORDER BY verdict').pluck().all()
    expect(words).toEqual(['consistent', 'inconsistent'])
    w.close()

    const m = await cli(['metrics', '--workspace', db, '--dataset', 'qags', '--json'])
    expect(m.code, m.err).toBe(0)
    const out = JSON.parse(m.out)
    const judge = out.judges[0]
    expect(judge.na_rate).toBe(0)
    expect(judge.error_rate).not.toBeNull()
    const il = out.item_level as ItemJson
    expect(il.items).toHaveLength(8)
    const gold = il.series.find((s) => s.source === 'gold')!
    // Summary 1: both sentences held consistent by the majority; summary 3: neither; summary 4: 2 of 3.
    expect(gold.values[0]).toBe(1)
    expect(gold.values[2]).toBe(0)
    expect(gold.values[3]).toBeCloseTo(2 / 3, 12)
    const lexical = il.correlations.filter((c) => c.source === 'judge')
    expect(lexical.map((c) => c.score).sort()).toEqual(['rouge1', 'rouge2', 'rougeL', 'share-supported'])
    for (const c of lexical) {
      expect(c.n).toBe(8)
      expect(c.pearson).not.toBeNull()
      expect(c.spearman).not.toBeNull()
      expect(c.kendall_tau_b).not.toBeNull()
      // Eight responses: Fisher's z intervals, and the mark that eight are too few to read; a
      // perfect τ-b (the rouge2 run agrees with gold on every response) has no finite z, so no interval.
      if (Math.abs(c.kendall_tau_b!) < 1) expect(c.kendall_tau_b_ci).not.toBeNull()
      else expect(c.kendall_tau_b_ci).toBeNull()
      expect(c.too_few_items).toBe(true)
      expect(c.by_variant.summary?.n).toBe(8)
    }
    // Copied sentences score high on overlap and are the ones people accept.
    expect(lexical.find((c) => c.score === 'share-supported')!.pearson!).toBeGreaterThan(0.5)
    expect(il.score_definitions['share-supported']).toMatch(/share/)
    // Every worker is a labeller with item scores against the others' gold.
    expect(il.correlations.filter((c) => c.source === 'annotator')).toHaveLength(3)

    // The Markdown report carries the same table.
    const md = join(dir(), 'report.md')
    const r = await cli([
      'metrics',
      '--workspace',
      db,
      '--dataset',
      'qags',
      '--format',
      'md',
      '--out',
      md,
      '--charts',
      'svg',
    ])
    expect(r.code, r.err).toBe(0)
    const text = readFileSync(md, 'utf8')
    expect(text).toContain('Item-level scores against human item scores')
    expect(text).toMatch(/\| share-supported \| all \| pooled \| 8 \|/)
  })
})
