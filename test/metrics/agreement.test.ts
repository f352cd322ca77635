import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  cohenKappa,
  fleissKappa,
  krippendorffAlpha,
  percentAgreement,
} from '../../src/main/metrics/stats/agreement'

/** Expands a table of category counts per subject into a ratings matrix (one column per rater slot). */
function fromCounts(table: number[][], categories: string[]): (string | null)[][] {
  return table.map((counts) => counts.flatMap((c, j) => new Array<string>(c).fill(categories[j]!)))
}

// Krippendorff (2011), "Computing Krippendorff's alpha-reliability", example C: four observers,
// twelve units, missing values. Published: nominal α = 0.743, interval α = 0.849.
const K = null
const observers = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, K, K, K],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, K, 3],
  [K, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, K],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, K],
]
const kripp = observers[0]!.map((_, u) => observers.map((o) => o[u] ?? null))

describe('Cohen κ', () => {
  it('matches the textbook 2×2 example (po 0.7, pe 0.5 → κ 0.4)', () => {
    const a: string[] = []
    const b: string[] = []
    const add = (x: string, y: string, n: number) => {
      for (let i = 0; i < n; i++) {
        a.push(x)
        b.push(y)
      }
    }
    add('yes', 'yes', 20)
    add('yes', 'no', 5)
    add('no', 'yes', 10)
    add('no', 'no', 15)
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 10)
  })

  it('ignores targets only one annotator labelled and is symmetric', () => {
    const a = ['t', 'f', 't', null, 'f', 't']
    const b = ['t', 'f', 'f', 't', null, 't']
    expect(cohenKappa(a, b)).toBeCloseTo(cohenKappa(b, a)!, 12)
    // Overlap is t/t, f/f, t/f, t/t: po = 0.75, pe = 0.75·0.5 + 0.25·0.5 = 0.5 → κ = 0.5
    expect(cohenKappa(a, b)).toBeCloseTo(0.5, 12)
  })

  it('is not defined without overlap or when one category is all anyone used', () => {
    expect(cohenKappa(['t', null], [null, 'f'])).toBeNull()
    expect(cohenKappa(['t', 't'], ['t', 't'])).toBeNull()
  })
})

describe('Fleiss κ', () => {
  it('matches the published 10 subjects × 14 raters example (κ ≈ 0.210)', () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ]
    const ratings = fromCounts(table, ['1', '2', '3', '4', '5'])
    expect(fleissKappa(ratings)).toBeCloseTo(0.2099, 4)
    // Percent agreement is the mean share of agreeing pairs, P̄ = 0.3780 in the same example.
    expect(percentAgreement(ratings)).toBeCloseTo(0.378, 3)
  })

  it('is not defined when every label is the same category', () => {
    expect(
      fleissKappa([
        ['t', 't'],
        ['t', 't'],
      ]),
    ).toBeNull()
    expect(
      percentAgreement([
        ['t', 't'],
        ['t', 't'],
      ]),
    ).toBe(1)
  })
})

describe('Krippendorff α', () => {
  it('matches the published nominal and interval values with missing data', () => {
    expect(krippendorffAlpha(kripp, 'nominal')).toBeCloseTo(0.743, 3)
    expect(krippendorffAlpha(kripp, 'interval')).toBeCloseTo(0.849, 3)
  })

  it('reads numbers given as text for interval data', () => {
    const asText = kripp.map((r) => r.map((v) => (v === null ? null : String(v))))
    expect(krippendorffAlpha(asText, 'interval')).toBeCloseTo(0.849, 3)
  })

  it('is not defined with no pairable values or no variation', () => {
    expect(
      krippendorffAlpha(
        [
          ['a', null],
          [null, 'b'],
        ],
        'nominal',
      ),
    ).toBeNull()
    expect(
      krippendorffAlpha(
        [
          ['a', 'a'],
          ['a', 'a'],
        ],
        'nominal',
      ),
    ).toBeNull()
  })
})

describe('agreement properties', () => {
  const cat = fc.constantFrom('t', 'f', 'n', null)
  const matrix = fc.array(fc.array(cat, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 30 })

  it('κ and α never exceed 1 and do not depend on row order', () => {
    fc.assert(
      fc.property(matrix, (rows) => {
        const reversed = [...rows].reverse()
        for (const f of [fleissKappa, (r: (string | null)[][]) => krippendorffAlpha(r, 'nominal')]) {
          const v = f(rows)
          if (v !== null) {
            expect(v).toBeLessThanOrEqual(1 + 1e-12)
            expect(f(reversed)).toBeCloseTo(v, 10)
          } else expect(f(reversed)).toBeNull()
        }
        const k = cohenKappa(
          rows.map((r) => r[0] ?? null),
          rows.map((r) => r[1] ?? null),
        )
        if (k !== null) expect(k).toBeLessThanOrEqual(1 + 1e-12)
        const p = percentAgreement(rows)
        if (p !== null) expect(p).toBeGreaterThanOrEqual(0)
      }),
    )
  })

  it('perfect agreement with two categories in use gives 1 everywhere', () => {
    const rows = [
      ['t', 't', 't'],
      ['f', 'f', null],
      ['t', null, 't'],
    ]
    expect(fleissKappa(rows)).toBeCloseTo(1, 12)
    expect(krippendorffAlpha(rows, 'nominal')).toBeCloseTo(1, 12)
    expect(percentAgreement(rows)).toBe(1)
  })
})
