/**
 * The providers' prompt caches as the fake server plays them. Anthropic caches the prompt up to
 * a `cache_control` breakpoint: the first request writes it, later ones with the same prefix
 * read it. OpenAI caches any prompt prefix of 1,024 tokens or more it has seen, in steps of 128.
 */
type Obj = Record<string, unknown>

export const tokensOf = (s: string) => Math.max(1, Math.ceil(s.length / 4))

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((b) => (typeof b === 'object' && b !== null ? String((b as Obj).text ?? '') : ''))
    .join('')
}

const OPENAI_MIN_TOKENS = 1024
/** The shortest text whose prefix can count as OpenAI's minimum (4 characters a token). */
const OPENAI_MIN_CHARS = OPENAI_MIN_TOKENS * 4

export class PromptCacheSim {
  private readonly written = new Set<string>()
  private readonly seen: string[] = []

  /** Cache tokens for an Anthropic Messages body: what was read, what was written. */
  anthropic(body: Obj): { read: number; write: number } {
    const parts: string[] = [textOf(body.system)]
    let prefix: string | null = null
    const messages = Array.isArray(body.messages) ? (body.messages as Obj[]) : []
    for (const m of messages) {
      const blocks = Array.isArray(m.content) ? (m.content as Obj[]) : [{ text: m.content }]
      for (const b of blocks) {
        parts.push(String(b.text ?? ''))
        if (b.cache_control) prefix = parts.join('\u0000')
      }
    }
    if (prefix === null) return { read: 0, write: 0 }
    const t = tokensOf(prefix)
    if (this.written.has(prefix)) return { read: t, write: 0 }
    this.written.add(prefix)
    return { read: 0, write: t }
  }

  /** Cached prompt tokens for an OpenAI Chat Completions body (included in prompt_tokens). */
  openai(body: Obj): number {
    const messages = Array.isArray(body.messages) ? (body.messages as Obj[]) : []
    const text = messages.map((m) => textOf(m.content)).join('\u0000')
    // A prompt under the minimum can neither be read from the cache nor give a later prompt a
    // long enough prefix, so it is not kept: at high concurrency, comparing every short judge
    // prompt with the last 500 was most of the fake server's CPU (which shares the machine).
    if (text.length < OPENAI_MIN_CHARS) return 0
    let best = 0
    for (const s of this.seen) {
      let i = 0
      const n = Math.min(s.length, text.length)
      while (i < n && s.charCodeAt(i) === text.charCodeAt(i)) i++
      if (i > best) best = i
    }
    this.seen.push(text)
    if (this.seen.length > 500) this.seen.shift()
    const t = Math.floor(best / 4)
    return t >= OPENAI_MIN_TOKENS ? Math.floor(t / 128) * 128 : 0
  }
}
