import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { itemCorrelation } from '../../../src/main/metrics/items/correlate'
import {
  readableCorrelation,
  readableSummaryLevel,
  readableSystemLevel,
} from '../../../src/main/metrics/items/readable'
import { summaryLevelIntervals, systemLevelIntervals } from '../../../src/main/metrics/stats/levelIntervals'
import {
  documentCoefficients,
  type ScoredResponse,
  summaryLevel,
  systemMeans,
} from '../../../src/main/metrics/stats/levels'
import type { ItemCorrelationLine, ItemLevel } from '../../../src/shared/contract/itemLevel'
import { itemLevelJson } from '../../../src/shared/itemLevelJson'
import { itemLevelRows } from '../../../src/shared/itemLevelRows'

/**
 * Intervals of the summary level (documents resampled) and the system level (documents and
 * systems resampled), and what the table and the JSON make of them.
 */
const BOOT = { seed: 7, replicates: 1000 }

/** Three systems per document; `sign` +1 puts the judge in the people's order, −1 against it. */
function documents(signs: number[], offset = 0): ScoredResponse[] {
  return signs.flatMap((sign, d) =>
    [1, 2, 3].map((k) => ({ item: offset + d, variant: `M${k}`, judge: sign * k, human: k + (d % 2) })),
  )
}

function width(iv: readonly [number, number] | null): number {
  if (iv === null) throw new Error('no interval')
  return iv[1] - iv[0]
}

function line(rows: readonly ScoredResponse[]): ItemCorrelationLine {
  const systems = systemMeans(rows)
  const pooled = readableCorrelation(
    itemCorrelation(
      rows.map((r) => r.judge),
      rows.map((r) => r.human),
      BOOT,
    ),
  )
  return {
    source: 'judge',
    runId: 1,
    annotator: null,
    label: 'judge-x',
    unitKind: 'whole',
    score: 'verdict',
    humanScore: 'verdict',
    humanUnitKind: 'whole',
    overall: pooled,
    summaryLevel: readableSummaryLevel(
      summaryLevel(rows),
      summaryLevelIntervals(documentCoefficients(rows), BOOT),
    ),
    systemLevel: readableSystemLevel(
      readableCorrelation(
        itemCorrelation(
          systems.map((m) => m.judge),
          systems.map((m) => m.human),
          BOOT,
        ),
      ),
      systemLevelIntervals(rows, BOOT),
    ),
    // Two variants, so the table prints the summary- and system-level rows.
    byVariant: { M1: pooled, M2: pooled },
  }
}

function level(rows: readonly ScoredResponse[]): ItemLevel {
  return { replicates: BOOT.replicates, definitions: {}, items: [], series: [], correlations: [line(rows)] }
}

describe('summary-level intervals (documents resampled)', () => {
  it('every document in the people’s order: each coefficient is 1, the resamples all 1, so the interval collapses at 1 and the table says it is undefined there', () => {
    const rows = documents(Array(12).fill(1))
    const iv = summaryLevelIntervals(documentCoefficients(rows), BOOT)
    expect(iv).toEqual({ pearson: [1, 1], spearman: [1, 1], kendallTauB: [1, 1] })
    const shown = readableSummaryLevel(summaryLevel(rows), iv)
    // As for any correlation at ±1: no made-up [1.000, 1.000].
    expect(shown).toMatchObject({ pearson: 1, pearsonCi: null, ciMethod: null })
    const row = itemLevelRows(level(rows)).find((r) => r[4] === 'summary-level (per item)')!
    expect(row.slice(5, 7)).toEqual(['12', '1.000 · interval undefined at ±1 over 12 items'])
    expect(itemLevelJson(level(rows)).correlations[0]!.summary_level).toMatchObject({
      pearson: 1,
      pearson_ci: null,
      ci_method: null,
      ci_undefined_at_bound: ['pearson', 'spearman', 'kendall_tau_b'],
    })
  })

  it('half the documents one way, half the other: the average 0 with an interval around it, inside [−1, 1]', () => {
    const rows = documents([1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1])
    const s = summaryLevel(rows)
    expect(s.pearson).toBeCloseTo(0, 12)
    const iv = summaryLevelIntervals(documentCoefficients(rows), BOOT).pearson!
    expect(iv[0]).toBeLessThan(0)
    expect(iv[1]).toBeGreaterThan(0)
    expect(iv[0]).toBeGreaterThanOrEqual(-1)
    expect(iv[1]).toBeLessThanOrEqual(1)
    // Resampled means of twelve ±1s, each drawn with probability ½: a standard error of 1/√12,
    // so the interval spans about 4 × 0.289 (Monte Carlo and the grid of twelfths aside).
    expect(width(iv)).toBeGreaterThan(0.9)
    expect(width(iv)).toBeLessThan(1.4)
  })

  it('two documents: no coefficient and no interval, marked too few in the table and the JSON', () => {
    const rows = documents([1, -1])
    const row = itemLevelRows(level(rows)).find((r) => r[4] === 'summary-level (per item)')!
    expect(row.slice(5, 9)).toEqual([
      '2',
      '— · too few items (n=2)',
      '— · too few items (n=2)',
      '— · too few items (n=2)',
    ])
    expect(itemLevelJson(level(rows)).correlations[0]!.summary_level).toMatchObject({
      items: 2,
      pearson: null,
      pearson_ci: null,
      too_few_items: true,
    })
  })

  it('six documents: the figure with its interval, and the too-few mark beside it', () => {
    const rows = documents([1, 1, -1, 1, 1, 1])
    const row = itemLevelRows(level(rows)).find((r) => r[4] === 'summary-level (per item)')!
    expect(row[6]).toMatch(/^0\.667 \[-?\d\.\d{3}, \d\.\d{3}\] · too few items \(n=6\)$/)
    const json = itemLevelJson(level(rows)).correlations[0]!.summary_level
    expect(json).toMatchObject({ items: 6, ci_method: 'bootstrap', too_few_items: true })
    expect(json.pearson_ci).toHaveLength(2)
  })

  it('the same rows and seed give the same interval on every open', () => {
    const rows = documents([1, -1, 1, 1, -1, 1, 1, 1])
    expect(summaryLevelIntervals(documentCoefficients(rows), BOOT)).toEqual(
      summaryLevelIntervals(documentCoefficients([...rows].reverse()), BOOT),
    )
    expect(systemLevelIntervals(rows, BOOT)).toEqual(systemLevelIntervals([...rows].reverse(), BOOT))
  })

  // Coefficients of random documents: three to six systems each, scores on a 1–5 scale.
  const docs = fc.array(
    fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 })), {
      minLength: 3,
      maxLength: 6,
    }),
    { minLength: 4, maxLength: 12 },
  )
  const toRows = (ds: [number, number][][], copies = 1): ScoredResponse[] =>
    Array.from({ length: copies }, (_, c) =>
      ds.flatMap((pairs, d) =>
        pairs.map(([judge, human], s) => ({ item: c * ds.length + d, variant: `M${s}`, judge, human })),
      ),
    ).flat()

  it('property: the interval holds the averaged coefficient', () => {
    fc.assert(
      fc.property(docs, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (ds, seed) => {
        const rows = toRows(ds)
        const s = summaryLevel(rows)
        const iv = summaryLevelIntervals(documentCoefficients(rows), { seed, replicates: 200 })
        for (const k of ['pearson', 'spearman', 'kendallTauB'] as const) {
          if (s[k] === null) return
          const ci = iv[k]!
          expect(ci[0]).toBeLessThanOrEqual(s[k]! + 1e-12)
          expect(ci[1]).toBeGreaterThanOrEqual(s[k]! - 1e-12)
        }
      }),
      { numRuns: 60 },
    )
  })

  it('property: four times the documents (alike in spread) give a narrower interval', () => {
    fc.assert(
      fc.property(docs, (ds) => {
        const few = summaryLevelIntervals(documentCoefficients(toRows(ds)), BOOT).pearson
        const many = summaryLevelIntervals(documentCoefficients(toRows(ds, 4)), BOOT).pearson
        const s = summaryLevel(toRows(ds))
        // Documents that all agree have nothing to narrow.
        fc.pre(few !== null && many !== null && width(few) > 0.05 && s.items >= 4)
        expect(width(many)).toBeLessThan(width(few))
      }),
      { numRuns: 40 },
    )
  })
})

describe('system-level intervals (documents and systems resampled)', () => {
  /**
   * Sixteen systems whose quality rises with their number; the judge follows it, but each
   * (document, system) score carries noise as large as the systems' spread.
   */
  function noisy(docCount: number): ScoredResponse[] {
    const rows: ScoredResponse[] = []
    for (let d = 0; d < docCount; d++)
      for (let s = 0; s < 16; s++) {
        const wobble = (((d * 7 + s * 13) % 11) - 5) / 2
        rows.push({ item: d, variant: `S${s}`, judge: s / 4 + wobble, human: s / 4 })
      }
    return rows
  }

  it('means over three documents read wider than the same sixteen systems over sixty', () => {
    const three = line(noisy(3)).systemLevel
    const sixty = line(noisy(60)).systemLevel
    expect(three.n).toBe(16)
    expect(width(three.pearsonCi)).toBeGreaterThan(width(sixty.pearsonCi))
    // Over three documents the systems' means are a sample too: the bootstrap over documents
    // and systems is wider than Fisher's z over the sixteen means alone, so it is the one given.
    const systems = systemMeans(noisy(3))
    const fisherOnly = readableCorrelation(
      itemCorrelation(
        systems.map((m) => m.judge),
        systems.map((m) => m.human),
        BOOT,
      ),
    )
    expect(fisherOnly.ciMethod).toBe('fisher')
    expect(three.ciMethod).toBe('bootstrap')
    expect(width(three.pearsonCi)).toBeGreaterThan(width(fisherOnly.pearsonCi))
    for (const c of [three, sixty]) {
      expect(c.pearsonCi![0]).toBeLessThanOrEqual(c.pearson!)
      expect(c.pearsonCi![1]).toBeGreaterThanOrEqual(c.pearson!)
    }
  })

  it('three systems: withheld and marked too few, as any correlation under four pairs', () => {
    const rows = documents(Array(12).fill(1))
    const row = itemLevelRows(level(rows)).find((r) => r[4] === 'system-level (per variant)')!
    expect(row.slice(5, 7)).toEqual(['3 variants', '— · too few variants (n=3)'])
    expect(itemLevelJson(level(rows)).correlations[0]!.system_level).toMatchObject({
      systems: 3,
      pearson: null,
      pearson_ci: null,
      too_few_systems: true,
      // The old name stays for readers written before too_few_systems.
      too_few_items: true,
    })
  })

  it('sixteen systems over three documents: the JSON says enough systems, whatever the documents', () => {
    expect(itemLevelJson(level(noisy(3))).correlations[0]!.system_level).toMatchObject({
      systems: 16,
      too_few_systems: false,
      too_few_items: false,
    })
  })
})
