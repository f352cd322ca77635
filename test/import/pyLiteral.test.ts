import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PyLiteralError, type PyValue, parsePythonLiteral } from '../../src/main/import/pyLiteral'
import { matchKey, splitFacts, toVerdict } from '../../src/main/import/text'
import { BINARY_SCHEMA, FAAF_SCHEMA, numericSchema, REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'

/** Prints a value the way Python's repr does (the format datasets are released in). */
function pyRepr(v: PyValue): string {
  if (v === null) return 'None'
  if (v === true) return 'True'
  if (v === false) return 'False'
  if (typeof v === 'number') return Object.is(v, -0) ? '-0.0' : String(v)
  if (typeof v === 'string') {
    const quote = v.includes("'") && !v.includes('"') ? '"' : "'"
    const body = [...v]
      .map((ch) => {
        if (ch === '\\') return '\\\\'
        if (ch === quote) return `\\${quote}`
        if (ch === '\n') return '\\n'
        if (ch === '\r') return '\\r'
        if (ch === '\t') return '\\t'
        const code = ch.codePointAt(0)!
        if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`
        return ch
      })
      .join('')
    return quote + body + quote
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`
  return `{${Object.entries(v)
    .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
    .join(', ')}}`
}

const pyValue: fc.Arbitrary<PyValue> = fc.letrec<{ v: PyValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('v'), { maxKeys: 4 }),
  ),
})).v

describe('Python literal parser', () => {
  it('reads what WikiEvalFacts prints', () => {
    expect(
      parsePythonLiteral(
        `{'The tower is 40 m tall.': 'True', "Halloway's glider flew.": 'False', 'x': None}`,
      ),
    ).toEqual({ 'The tower is 40 m tall.': 'True', "Halloway's glider flew.": 'False', x: null })
  })

  it('handles escapes, tuples, nesting, trailing commas and adjacent strings', () => {
    expect(
      parsePythonLiteral(`[('a\\'b', "c\\nd", u'\\u00e9', r'\\d'), {'k': [1, -2.5e3, True,]}, 'x' 'y']`),
    ).toEqual([["a'b", 'c\nd', 'é', '\\d'], { k: [1, -2500, true] }, 'xy'])
  })

  it('never evaluates code: names and calls are errors naming the position', () => {
    expect(() => parsePythonLiteral("{'a': __import__('os')}")).toThrow(
      new PyLiteralError('unexpected "_"', 6),
    )
    expect(() => parsePythonLiteral("{'a': 'b'")).toThrow(/expected "," or "}" at character 10/)
    expect(() => parsePythonLiteral("'open")).toThrow(/unterminated string at character 1/)
  })

  it('a __proto__ key is data, not a prototype', () => {
    const v = parsePythonLiteral("{'__proto__': {'polluted': True}}") as Record<string, unknown>
    expect(Object.keys(v)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('reads back anything Python would print (property)', () => {
    fc.assert(
      fc.property(pyValue, (v) => {
        expect(parsePythonLiteral(pyRepr(v))).toEqual(v)
      }),
      { numRuns: 300 },
    )
  })

  it('random text gives a value or a PyLiteralError, never another failure (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...`{}[](),:'"\\ uTFN0.-e1ax\n`.split('')), maxLength: 60 }),
        (s) => {
          try {
            parsePythonLiteral(s)
          } catch (error) {
            expect(error).toBeInstanceOf(PyLiteralError)
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('text helpers', () => {
  it('matches label keys to facts despite case, quotes, punctuation and spacing', () => {
    expect(matchKey('  The “Corran” river powered   mills. ')).toBe(
      matchKey("the 'Corran' River powered mills"),
    )
    expect(matchKey('It is 40 m.')).not.toBe(matchKey('It is 41 m.'))
  })

  it('splits a dash list, joining wrapped lines to their fact', () => {
    // "-Three-part" has no space after its dash: a wrapped line, not a new fact.
    expect(splitFacts('- One fact.\n- Two\n  continues here.\n-Three-part word stays.', 'dash-list')).toEqual(
      ['One fact.', 'Two continues here. -Three-part word stays.'],
    )
    expect(splitFacts("['a', 'b']", 'dash-list')).toEqual(['a', 'b'])
  })

  it('reads verdicts in the spellings datasets use, and refuses others', () => {
    expect(toVerdict(FAAF_SCHEMA, 'True')).toBe('true')
    expect(toVerdict(FAAF_SCHEMA, 'Not clear from the given passage')).toBe('not_clear')
    expect(toVerdict(BINARY_SCHEMA, 1)).toBe('yes')
    expect(toVerdict(BINARY_SCHEMA, '0')).toBe('no')
    expect(toVerdict(REFCHECKER_SCHEMA, 'CONTRADICTION')).toBe('contradiction')
    expect(toVerdict(numericSchema('s', 0, 5, 3), '4.400')).toBe('4.4')
    expect(() => toVerdict(numericSchema('s', 0, 5, 3), '7')).toThrow('7 is outside 0–5')
    expect(() => toVerdict(REFCHECKER_SCHEMA, 'true')).toThrow(
      '"true" is not one of entailment, neutral, contradiction',
    )
  })
})
