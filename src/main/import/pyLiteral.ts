/**
 * A safe reader for Python literals as datasets print them (`str(dict)`): dicts, lists, tuples,
 * strings with escapes, numbers, True/False/None. Nothing is evaluated; anything else is an
 * error naming the character position.
 */

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue }

export class PyLiteralError extends Error {
  override name = 'PyLiteralError'
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at character ${position + 1}`)
  }
}

const MAX_DEPTH = 200

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
}

class Reader {
  pos = 0
  constructor(readonly src: string) {}

  fail(message: string): never {
    throw new PyLiteralError(message, this.pos)
  }

  skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos]!)) this.pos++
  }

  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail('nesting too deep')
    this.skipSpace()
    const ch = this.src[this.pos]
    if (ch === undefined) this.fail('unexpected end of text')
    if (ch === '{') return this.dict(depth)
    if (ch === '[') return this.sequence(']', depth)
    if (ch === '(') return this.sequence(')', depth)
    if (ch === "'" || ch === '"') return this.string(false)
    if (/[uUrR]/.test(ch) && /['"]/.test(this.src[this.pos + 1] ?? '')) {
      this.pos++
      return this.string(ch === 'r' || ch === 'R')
    }
    if (/[-+0-9.]/.test(ch)) return this.number()
    for (const [word, v] of [
      ['True', true],
      ['False', false],
      ['None', null],
    ] as const) {
      if (this.src.startsWith(word, this.pos) && !/\w/.test(this.src[this.pos + word.length] ?? '')) {
        this.pos += word.length
        return v
      }
    }
    this.fail(`unexpected ${JSON.stringify(ch)}`)
  }

  dict(depth: number): { [key: string]: PyValue } {
    this.pos++
    const out: { [key: string]: PyValue } = Object.create(null)
    this.skipSpace()
    if (this.src[this.pos] === '}') {
      this.pos++
      return { ...out }
    }
    for (;;) {
      const keyAt = this.pos
      const key = this.value(depth + 1)
      if (typeof key === 'object' && key !== null)
        throw new PyLiteralError('a dict key must be a plain value', keyAt)
      this.skipSpace()
      if (this.src[this.pos] !== ':') this.fail('expected ":"')
      this.pos++
      out[String(key)] = this.value(depth + 1)
      this.skipSpace()
      const sep = this.src[this.pos]
      if (sep !== ',' && sep !== '}') this.fail('expected "," or "}"')
      this.pos++
      if (sep === '}') return { ...out }
      this.skipSpace()
      if (this.src[this.pos] === '}') {
        this.pos++
        return { ...out }
      }
    }
  }

  sequence(close: ']' | ')', depth: number): PyValue[] {
    this.pos++
    const out: PyValue[] = []
    this.skipSpace()
    if (this.src[this.pos] === close) {
      this.pos++
      return out
    }
    for (;;) {
      out.push(this.value(depth + 1))
      this.skipSpace()
      const sep = this.src[this.pos]
      if (sep !== ',' && sep !== close) this.fail(`expected "," or "${close}"`)
      this.pos++
      if (sep === close) return out
      this.skipSpace()
      if (this.src[this.pos] === close) {
        this.pos++
        return out
      }
    }
  }

  string(raw: boolean): string {
    const quote = this.src[this.pos]!
    const triple = this.src.startsWith(quote.repeat(3), this.pos)
    const start = this.pos
    this.pos += triple ? 3 : 1
    let out = ''
    for (;;) {
      const ch = this.src[this.pos]
      if (ch === undefined) throw new PyLiteralError('unterminated string', start)
      if (ch === quote && (!triple || this.src.startsWith(quote.repeat(3), this.pos))) {
        this.pos += triple ? 3 : 1
        // Python joins adjacent literals: 'a' 'b' is 'ab'.
        const save = this.pos
        this.skipSpace()
        const next = this.src[this.pos]
        if (next === "'" || next === '"') return out + this.string(raw)
        this.pos = save
        return out
      }
      if (ch === '\n' && !triple) throw new PyLiteralError('line break inside a string', start)
      if (ch === '\\') {
        out += raw ? this.rawEscape() : this.escape()
        continue
      }
      out += ch
      this.pos++
    }
  }

  rawEscape(): string {
    const next = this.src[this.pos + 1]
    this.pos += next === undefined ? 1 : 2
    return next === undefined ? '\\' : `\\${next}`
  }

  escape(): string {
    const next = this.src[this.pos + 1]
    if (next === undefined) this.fail('unterminated escape')
    this.pos += 2
    if (next in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[next]!
    if (next === '\n') return ''
    const width = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0
    if (width === 0) return `\\${next}` // Python keeps unknown escapes as written.
    const hex = this.src.slice(this.pos, this.pos + width)
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) this.fail(`bad \\${next} escape`)
    const code = Number.parseInt(hex, 16)
    if (code > 0x10ffff) this.fail('escape beyond Unicode')
    this.pos += width
    return String.fromCodePoint(code)
  }

  number(): number {
    const m = /^[-+]?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?/.exec(this.src.slice(this.pos, this.pos + 400))
    const text = m?.[0] ?? ''
    const n = Number(text.replace(/_/g, ''))
    if (!/\d/.test(text) || !Number.isFinite(n)) this.fail('bad number')
    this.pos += text.length
    return n
  }
}

export function parsePythonLiteral(src: string): PyValue {
  const r = new Reader(src)
  const v = r.value(0)
  r.skipSpace()
  if (r.pos < src.length) r.fail('unexpected text after the value')
  return v
}

/** JSON first (it is the common case and stricter), then a Python literal. */
export function parseLiteral(src: string): PyValue {
  try {
    return JSON.parse(src) as PyValue
  } catch {
    return parsePythonLiteral(src)
  }
}
