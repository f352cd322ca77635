import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { summaryLevel, systemMeans } from '../../src/main/metrics/stats/levels'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'

/**
 * DCR against SummEval as the paper reports it (Table 3, UniEval's summary level): a DCR run on a
 * numeric-rated dataset, its response scores set against the experts' mean, correlated per
 * document and averaged. Every figure below is worked by hand.
 */
const dir = tmpDirs()

// doc, system, experts' consistency (all three alike), DCR marks of the two sentences
// (c consistent, i inconsistent, - no verdict)
const CASES: [string, string, number, string][] = [
  ['d1', 'M1', 5, 'cc'],
  ['d1', 'M2', 3, 'ci'],
  ['d1', 'M3', 1, 'ii'],
  ['d2', 'M1', 5, 'ci'],
  ['d2', 'M2', 4, 'cc'],
  ['d2', 'M3', 2, 'ii'],
  ['d3', 'M1', 2, 'cc'],
  ['d3', 'M2', 4, 'ci'],
  ['d3', 'M3', 5, 'ii'],
  ['d4', 'M1', 5, 'cc'],
  ['d4', 'M2', 5, 'ci'],
  ['d4', 'M3', 5, 'cc'],
  ['d5', 'M1', 4, 'cc'],
  ['d6', 'M1', 1, 'ii'],
  ['d6', 'M2', 5, 'cc'],
  ['d6', 'M3', 3, 'cc'],
  ['d7', 'M1', 5, 'cc'],
  ['d7', 'M2', 2, 'c-'],
]

// Per document Spearman, by hand (DCR score = share of consistent sentences here, α = β = 0):
// d1 judge 1, .5, 0 against 5, 3, 1 → 1. d2 judge .5, 1, 0 against 5, 4, 2 → ranks (2, 3, 1) and
// (3, 2, 1): 1 − 6·2 / (3·8) = 0.5. d3 judge 1, .5, 0 against 2, 4, 5 → −1. d6 judge 0, 1, 1
// against 1, 5, 3 → ranks (1, 2.5, 2.5) and (1, 3, 2): 1.5 / (√1.5 · √2) = √3 / 2.
// Left out: d4 (experts all 5), d5 (one summary), d7 (M2's second sentence has no verdict, so
// M2 has no score, as the judge gives none, and one summary is left).
const SUMMARY_SPEARMAN = (1 + 0.5 - 1 + Math.sqrt(3) / 2) / 4

function fixture(folder: string): { data: string; verdicts: string } {
  const data = join(folder, 'summ.jsonl')
  const verdicts = join(folder, 'dcr.jsonl')
  writeFileSync(
    data,
    CASES.map(([doc, sys, c]) =>
      JSON.stringify({
        id: doc,
        model_id: sys,
        text: 'The source says one thing. It says another.',
        decoded: 'Alpha rose. Beta fell.',
        references: ['x'],
        expert_annotations: [0, 1, 2].map(() => ({ coherence: 3, consistency: c, fluency: 3, relevance: 3 })),
        turker_annotations: [],
      }),
    ).join('\n'),
  )
  // `units list` numbers each summary's units sentence, sentence, whole: the k-th summary of a
  // document holds sentences 3k + 1 and 3k + 2.
  const rows: string[] = []
  const seen = new Map<string, number>()
  for (const [doc, sys, , marks] of CASES) {
    const k = seen.get(doc) ?? 0
    seen.set(doc, k + 1)
    ;[...marks].forEach((m, s) => {
      if (m === '-') return
      const verdict = m === 'c' ? 'consistent' : 'inconsistent'
      rows.push(JSON.stringify({ item_id: doc, variant: sys, unit: 3 * k + 1 + s, verdict }))
    })
  }
  writeFileSync(verdicts, rows.join('\n'))
  return { data, verdicts }
}

describe('DCR against SummEval at the paper’s levels', () => {
  it('summary level: per document, then averaged, the left-out documents counted', () => {
    const rows = CASES.filter(([doc, sys]) => !(doc === 'd7' && sys === 'M2')).map(([doc, sys, c, m]) => ({
      item: Number(doc.slice(1)),
      variant: sys,
      judge: [...m].filter((x) => x === 'c').length / 2,
      human: c,
    }))
    const s = summaryLevel(rows)
    expect(s.items).toBe(4)
    expect(s.leftOut).toBe(3)
    expect(s.spearman).toBeCloseTo(SUMMARY_SPEARMAN, 12)
    // System level: M1 5.5/7 against 27/7, M2 3/5 against 20/5, M3 2/5 against 16/5.
    const means = systemMeans(rows)
    expect(means.map((m) => m.variant)).toEqual(['M1', 'M2', 'M3'])
    expect(means[0]!.judge).toBeCloseTo(5.5 / 7, 12)
    expect(means[2]!.human).toBeCloseTo(16 / 5, 12)
  })

  it('through the CLI: a DCR run on a 1–5 dataset is scored, and metrics --json names each level', async () => {
    const folder = dir()
    const db = join(folder, 'ws.factlab')
    const { data, verdicts } = fixture(folder)
    expect((await cli(['import', data, '--workspace', db, '--dataset', 'se'])).code).toBe(0)
    const units = await cli([
      'units',
      'generate',
      '--method',
      'sentences',
      '--workspace',
      db,
      '--dataset',
      'se',
    ])
    expect(units.code, units.err).toBe(0)
    const imported = await cli([
      'import-verdicts',
      verdicts,
      '--workspace',
      db,
      '--dataset',
      'se',
      '--method',
      'dcr',
      '--model',
      'judge-x',
      '--json',
    ])
    expect(imported.code, imported.err).toBe(0)
    // Before, every one of these was N/A: "consistent" is not a number on a 1–5 scale.
    expect(JSON.parse(imported.out)).toMatchObject({ verdicts: 35, skipped: [] })
    const out = await cli(['metrics', '--workspace', db, '--dataset', 'se', '--json'])
    expect(out.code, out.err).toBe(0)
    const il = JSON.parse(out.out).item_level
    const series = il.series.find((s: { score: string }) => s.score === 'dcr')
    // d7 / M2: one sentence without a verdict, so no score, and counted.
    expect(series.unmarked).toBe(1)
    const at = il.items.findIndex(
      (i: { ext_id: string; variant: string }) => i.ext_id === 'd7' && i.variant === 'M2',
    )
    expect(series.values[at]).toBeNull()
    const line = il.correlations.find((c: { score: string }) => c.score === 'dcr')
    expect(line).toMatchObject({ unit_kind: 'sentence', human_unit_kind: 'whole', level: 'pooled', n: 17 })
    expect(line.summary_level).toMatchObject({
      items: 4,
      left_out: 3,
      too_few_items: true,
      ci_method: 'bootstrap',
    })
    expect(line.summary_level.spearman).toBeCloseTo(SUMMARY_SPEARMAN, 12)
    // The four documents' Spearman are 1, 0.5, −1 and √3/2: their resampled averages lie between
    // the lowest and the highest, and around the average itself.
    const [lo, hi] = line.summary_level.spearman_ci
    expect(lo).toBeGreaterThanOrEqual(-1)
    expect(lo).toBeLessThan(SUMMARY_SPEARMAN)
    expect(hi).toBeGreaterThan(SUMMARY_SPEARMAN)
    expect(hi).toBeLessThanOrEqual(1)
    // Three systems: under four pairs no coefficient is given, as for any correlation.
    expect(line.system_level).toMatchObject({ systems: 3, spearman: null })
    const report = await cli(['metrics', '--workspace', db, '--dataset', 'se'])
    expect(report.out).toMatch(
      /\| sentence \| dcr \| all \| summary-level \(per item\) \| 4 \(3 left out\) \| [^|]+ \| 0\.342 \[-?\d\.\d{3}, \d\.\d{3}\] · too few items \(n=4\) \|/,
    )
  })
})
