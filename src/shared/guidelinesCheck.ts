import { marked, type Token } from 'marked'

/** Raw HTML that could run code or pull content in: refused when guidelines are saved. */
const ACTIVE_HTML =
  /<\s*\/?\s*(script|iframe|object|embed|form|link|meta|style|base)\b|\son[a-z]+\s*=|javascript:/i

/**
 * Reasons a guidelines text is refused, empty when it is fine. Only raw HTML counts: a
 * `<script>` quoted in a code span or block is text the reader should see, not a tag.
 * Pure (marked's lexer needs no DOM), so main refuses and the editor warns with the same words.
 */
export function guidelinesProblems(markdown: string): string[] {
  const problems = new Set<string>()
  const tokens = marked.lexer(markdown)
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === 'html' && ACTIVE_HTML.test(token.raw)) {
      const tag = /<\s*\/?\s*([a-z]+)/i.exec(token.raw)?.[1]?.toLowerCase()
      problems.add(
        tag && tag !== 'a' && /script|iframe|object|embed|form|link|meta|style|base/.test(tag)
          ? `a <${tag}> tag`
          : 'HTML with an event handler or a javascript: link',
      )
    }
    if ((token.type === 'link' || token.type === 'image') && /^\s*javascript:/i.test(token.href))
      problems.add('a javascript: link')
  })
  return [...problems]
}

/** The sentence shown when guidelines are refused. */
export function guidelinesRefusal(problems: string[]): string {
  return `These guidelines contain ${problems.join(', ')}, which guidelines may not hold (they are shown to every annotator). Remove it and save again; nothing was changed.`
}
