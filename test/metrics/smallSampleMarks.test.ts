import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { toMarkdown } from '../../src/main/reports'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

/**
 * What `factlab metrics` prints for a dataset of two summaries and three sentences (the QA's
 * file): no coefficient reads as a finding. Correlations over two items are withheld, and every
 * agreement coefficient — κ, α, AC1, PABAK, overall, per variant and per pair — carries the mark
 * the report's own note promises, while the figures stay what they were.
 */
const dir = tmpDirs()
const FIXTURE = join(__dirname, '..', 'fixtures', 'smallSample', 'mturk_xsum.jsonl')

/** The rows of the Markdown table under `## title`, as cells. */
function section(md: string, title: string): string[][] {
  const after = md.split(`## ${title}\n`)[1]
  if (after === undefined) throw new Error(`no section ${title}`)
  const body = after.split('\n## ')[0]!
  return body
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
    .slice(1)
    .map((l) =>
      l
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    )
}

const MARK = /· too few shared targets \(n=\d+\)$/

describe('small samples in what `factlab metrics` prints', () => {
  it('two items, three shared targets: dashes for correlations, a mark on every agreement coefficient', async () => {
    const db = join(dir(), 'ws.factlab')
    expect((await cli(['import', FIXTURE, '--workspace', db])).code).toBe(0)
    // The file's workers come in as its reference labels (sources), which agreement leaves out;
    // as people, their three shared targets are what the marks are about.
    const raw = new Database(db)
    raw.prepare("UPDATE annotators SET kind = 'person'").run()
    raw.close()
    const md = await cli(['metrics', '--workspace', db, '--dataset', 'mturk_xsum'])
    expect(md.code, md.err).toBe(0)
    const out = md.out

    const items = section(out, 'Item-level scores against human item scores')
    expect(items.length).toBeGreaterThan(0)
    for (const row of items) {
      // Columns: judge, units, item score, variant, level, items, then the three coefficients.
      const n = row[5]
      // Pearson, Spearman and Kendall τ-b: never the 1.000 that two points always give.
      for (const cell of row.slice(6)) expect(cell).toBe(`— · too few items (n=${n})`)
    }

    const agreement = section(out, 'Inter-annotator agreement')
    expect(agreement.map((r) => r[0])).toEqual(['all', 'summary'])
    for (const row of agreement) {
      expect(row[1]).toBe('3')
      // Fleiss' κ, Krippendorff's α, AC1, PABAK: the figure, then the mark.
      for (const cell of row.slice(3, 7)) expect(cell).toMatch(MARK)
    }
    // The figures themselves are unchanged: α 0.600 over three targets, as before, but marked.
    expect(agreement[0]![4]).toBe('0.600 · too few shared targets (n=3)')
    expect(out).toContain('κ, α, AC1 and PABAK over fewer than 20 shared targets are marked too few to read.')

    const pairs = section(out, "Cohen's κ per annotator pair")
    expect(pairs.length).toBe(6)
    for (const row of pairs) for (const cell of row.slice(2)) expect(cell).toMatch(MARK)
    expect(pairs.find((r) => r[0] === 'A1 – A4')!.slice(1)).toEqual([
      '1',
      'not defined · too few shared targets (n=1)',
      '1.000 · too few shared targets (n=1)',
      '1.000 · too few shared targets (n=1)',
    ])

    // A rate over one or two targets comes with its (wide) Wilson interval, its n and the mark.
    const byVariant = section(out, 'Error rate by variant')
    expect(byVariant.find((r) => r[0] === 'A4 (human)')![1]).toBe(
      '0.0% [0.0–79.3%] (Wilson, n 1) · too few targets (n=1)',
    )
    expect(out).not.toMatch(/NaN|Infinity/)

    const json = await cli(['metrics', '--workspace', db, '--dataset', 'mturk_xsum', '--json'])
    const j = JSON.parse(json.out)
    for (const c of j.item_level.correlations) {
      expect(c).toMatchObject({ pearson: null, pearson_ci: null, kendall_tau_b: null, too_few_items: true })
      for (const v of Object.values(c.by_variant))
        expect(v).toMatchObject({ pearson: null, too_few_items: true })
    }
    expect(j.item_level.min_items).toBe(4)
    expect(j.agreement.krippendorff_alpha).toBeCloseTo(0.6, 12)
    expect(j.agreement.too_few_shared).toBe(true)
    expect(j.agreement.by_variant.summary.too_few_shared).toBe(true)
    expect(j.agreement.cohen_pairs.every((p: { too_few_shared: boolean }) => p.too_few_shared)).toBe(true)
  })

  it('twenty shared targets or more: the same tables carry no mark', () => {
    const fx = makeFixture(dir(), { items: 24, variants: ['answer'], facts: 1 })
    const ana = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? 'false' : 'true'))
    const bob = ana.map((v, i) => (i % 7 === 0 ? 'not_clear' : v))
    fx.labelAll('ana', ana)
    fx.labelAll('bob', bob)
    const md = toMarkdown(computeDatasetMetrics(fx.db, fx.datasetId))
    const rows = [...section(md, 'Inter-annotator agreement'), ...section(md, "Cohen's κ per annotator pair")]
    expect(rows.length).toBeGreaterThan(1)
    expect(rows.flat().join(' ')).not.toMatch(/too few/)
    fx.db.close()
  })
})
