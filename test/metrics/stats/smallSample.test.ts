import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cohenKappa, percentAgreement } from '../../../src/main/metrics/stats/agreement'
import { gwetAc1 } from '../../../src/main/metrics/stats/gwet'
import { pabak } from '../../../src/main/metrics/stats/pabak'
import { robustFigures } from '../../../src/main/metrics/stats/robust'
import { f1CiChoice, proportionCi } from '../../../src/main/metrics/stats/smallSample'
import { wilsonInterval } from '../../../src/main/metrics/stats/wilson'
import { agreementReading, prevalenceNote } from '../../../src/shared/smallSample'

/*
 * Worked example: Gwet, Handbook of Inter-Rater Reliability (4th ed., 2014), the 12 subjects × 4
 * raters × 5 categories table with missing ratings (the `cac.raw4raters` data of Gwet's irrCAC
 * package). Published results: AC1 = 0.77544, p_a = 0.81818, p_e = 0.19032; Fleiss' κ 0.76117.
 * Written out here by hand; null is a missing rating.
 */
const RAW_4_RATERS: (number | null)[][] = [
  [1, 1, null, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [null, 5, 5, 5],
  [null, null, 1, 1],
  [null, null, 3, null],
]

/* Gwet 2014 again: 5 observers scoring 15 units on 0–3, only observer 3 scoring all (published AC1 0.49662). */
const RAW_5_OBSERVERS: (number | null)[][] = [
  [1, 1, 2, null, 2],
  [1, 1, 0, 1, null],
  [2, 3, 3, 3, null],
  [null, 0, 0, null, 0],
  [0, 0, 0, null, 0],
  [0, 0, 0, null, 0],
  [1, 0, 2, null, 1],
  [1, null, 2, 0, null],
  [2, 2, 2, null, 2],
  [2, 1, 1, 1, null],
  [null, 1, 0, 0, null],
  [0, 0, 0, 0, null],
  [1, 2, 2, 2, null],
  [3, 3, 2, 2, 3],
  [1, 1, 1, null, 1],
]

/* Gwet 2014: 4 raters, 15 subjects, categories a–c, no missing ratings (published AC1 0.20808). */
const GENDER: string[][] = [
  'a a a c',
  'a a b c',
  'a a b c',
  'a a c c',
  'a b a a',
  'b a a a',
  'b b b b',
  'b c b b',
  'c c c c',
  'a a a c',
  'a a b c',
  'a a b c',
  'a a c c',
  'a b a a',
  'b a a a',
].map((r) => r.split(' '))

describe("Gwet's AC1", () => {
  it('matches the published worked example (Gwet 2014, raw ratings of 4 raters)', () => {
    const r = gwetAc1(RAW_4_RATERS)
    expect(r.ac1).toBeCloseTo(0.77544, 5)
    expect(r.pa).toBeCloseTo(0.81818, 5)
    expect(r.pe).toBeCloseTo(0.19032, 5)
  })

  it('matches the published values of two more of Gwet’s examples (5 observers; 4 raters on 3 categories)', () => {
    expect(gwetAc1(RAW_5_OBSERVERS).ac1).toBeCloseTo(0.49662, 5)
    expect(gwetAc1(GENDER).ac1).toBeCloseTo(0.20808, 5)
  })

  it('matches a two-rater binary table worked by hand (Gwet 2008, section 3 formulas)', () => {
    // 100 subjects, two raters: 90 both "yes", 2 both "no", 8 split (4 each way).
    // p_a = 0.92; π_yes = (94 + 94) / 200 = 0.94; p_e = 2·0.94·0.06 = 0.1128;
    // AC1 = (0.92 − 0.1128) / (1 − 0.1128) = 0.909828...; Cohen's κ here is only 0.2978.
    const rows = [
      ...Array.from({ length: 90 }, () => ['yes', 'yes']),
      ...Array.from({ length: 2 }, () => ['no', 'no']),
      ...Array.from({ length: 4 }, () => ['yes', 'no']),
      ...Array.from({ length: 4 }, () => ['no', 'yes']),
    ]
    expect(gwetAc1(rows).ac1).toBeCloseTo((0.92 - 0.1128) / (1 - 0.1128), 10)
    const kappa = cohenKappa(
      rows.map((r) => r[0]!),
      rows.map((r) => r[1]!),
    )
    expect(kappa).toBeCloseTo((0.92 - (0.94 * 0.94 + 0.06 * 0.06)) / (1 - (0.94 * 0.94 + 0.06 * 0.06)), 10)
    expect(pabak(0.92, 2)).toBeCloseTo(0.84, 12)
  })

  it('is 1 when everyone agrees, even on a single class, given the schema has two', () => {
    const rows = Array.from({ length: 30 }, () => ['true', 'true'])
    expect(gwetAc1(rows, 2).ac1).toBe(1)
    expect(gwetAc1(rows).ac1).toBeNull()
  })
})

const ratingRows = fc.array(
  fc.array(fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }), { minLength: 2, maxLength: 4 }),
  { minLength: 1, maxLength: 40 },
)

describe('AC1 and PABAK properties', () => {
  it('AC1 and PABAK lie in [−1, 1]', () => {
    fc.assert(
      fc.property(ratingRows, fc.integer({ min: 0, max: 5 }), (rows, q) => {
        const r = robustFigures(rows, q, false)
        for (const v of [r.ac1, r.pabak]) if (v !== null) expect(Math.abs(v)).toBeLessThanOrEqual(1 + 1e-12)
      }),
    )
  })

  it('PABAK is 2·agreement − 1 for two raters and two classes', () => {
    const pairs = fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 60 })
    fc.assert(
      fc.property(pairs, (ps) => {
        const rows = ps.map(([x, y]) => [x ? 'yes' : 'no', y ? 'yes' : 'no'])
        const agree = ps.filter(([x, y]) => x === y).length / ps.length
        expect(robustFigures(rows, 2, false).pabak).toBeCloseTo(2 * agree - 1, 12)
        expect(percentAgreement(rows)).toBeCloseTo(agree, 12)
      }),
    )
  })

  it('does not depend on the order of the rows', () => {
    fc.assert(
      fc.property(ratingRows, fc.integer(), (rows, seed) => {
        const shuffled = [...rows].sort(
          (x, y) => ((JSON.stringify(x).length * seed) % 7) - ((JSON.stringify(y).length * seed) % 7),
        )
        const a = robustFigures(rows, 3, false)
        const b = robustFigures(shuffled.reverse(), 3, false)
        if (a.ac1 === null) expect(b.ac1).toBeNull()
        else expect(b.ac1).toBeCloseTo(a.ac1, 12)
        if (a.pabak === null) expect(b.pabak).toBeNull()
        else expect(b.pabak).toBeCloseTo(a.pabak, 12)
        expect(b.dominantShare).toBe(a.dominantShare)
      }),
    )
  })
})

describe('Wilson intervals where the bootstrap degenerates', () => {
  it('0 errors in 4 is not [0–0%]', () => {
    // Wilson 95% for 0/4: upper = z²/(n + z²) = 3.8415/7.8415 = 0.4899
    const iv = wilsonInterval(0, 4)!
    expect(iv[0]).toBe(0)
    expect(iv[1]).toBeCloseTo(0.4899, 4)
  })

  it('matches a textbook value (8 of 20: 0.2188–0.6134)', () => {
    const iv = wilsonInterval(8, 20)!
    expect(iv[0]).toBeCloseTo(0.2188, 4)
    expect(iv[1]).toBeCloseTo(0.6134, 4)
  })

  it('chooses Wilson for few targets or one outcome, the bootstrap otherwise', () => {
    const boot = (): [number, number] => [0.1, 0.2]
    expect(proportionCi(1, 4, boot).method).toBe('wilson')
    expect(proportionCi(0, 500, boot)).toEqual({ ci: wilsonInterval(0, 500), method: 'wilson' })
    expect(proportionCi(30, 200, boot)).toEqual({ ci: [0.1, 0.2], method: 'bootstrap' })
    expect(proportionCi(0, 0, boot)).toEqual({ ci: null, method: null })
  })

  it('F1 of 0 on 4 targets gets a real interval', () => {
    const f = f1CiChoice({ tp: 0, fp: 1, fn: 1, tn: 2 }, () => [0, 0])
    expect(f.method).toBe('wilson')
    expect(f.ci![1]).toBeGreaterThan(0.3)
  })

  it('never prints a zero-width interval at 0 or 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.boolean(), (n, all) => {
        const iv = proportionCi(all ? n : 0, n, () => [0, 0]).ci!
        expect(iv[1] - iv[0]).toBeGreaterThan(0)
      }),
    )
  })
})

describe('readings', () => {
  it('says too few shared targets instead of a strength word', () => {
    expect(agreementReading(0, 4)).toBe('too few shared targets (n=4)')
    expect(agreementReading(0.1, 40)).toBe('slight')
  })

  it('reads the figure people see: a κ shown as 0.40 is "fair", and α and Fleiss shown alike read alike', () => {
    // ben against the release's labels: κ computed as 0.40000000000000013, shown "0.40".
    expect(agreementReading(0.40000000000000013, 40)).toBe('fair')
    // α 0.6015 is shown "0.60", as a Fleiss' κ of 0.5996 is: both "moderate" (cut point .6 included).
    expect(agreementReading(0.6015, 40)).toBe('moderate')
    expect(agreementReading(0.5996, 40)).toBe('moderate')
    // A figure shown above a cut point still reads past it.
    expect(agreementReading(0.405, 40)).toBe('moderate')
    // −0.001 is shown "−0.00": no worse than chance to the eye, so not called that.
    expect(agreementReading(-0.001, 40)).toBe('slight')
  })

  it('explains the prevalence paradox only when one class dominates', () => {
    expect(prevalenceNote('true', 0.95)).toMatch(/prevalence paradox/)
    expect(prevalenceNote('true', 0.6)).toBeNull()
  })
})
