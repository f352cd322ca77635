import { marked, type Token } from 'marked'

/** Tags that run code or pull content in: refused when guidelines are saved. */
const ACTIVE_TAG = /<\s*\/?\s*(script|iframe|object|embed|form|link|meta|style|base)\b/i
const EVENT_HANDLER = /\son[a-z]+\s*=/i
const JAVASCRIPT_URL = /javascript:/i

/** Whether raw HTML in Markdown would run code or pull content in (what guidelines may not hold). */
export function isActiveHtml(raw: string): boolean {
  return ACTIVE_TAG.test(raw) || EVENT_HANDLER.test(raw) || JAVASCRIPT_URL.test(raw)
}

/**
 * Reasons a guidelines text is refused, empty when it is fine, each named once. Only raw HTML
 * counts: a `<script>` quoted in a code span or block is text the reader should see, not a tag.
 * Pure (marked's lexer needs no DOM), so main refuses and the editor warns with the same words.
 */
export function guidelinesProblems(markdown: string): string[] {
  const problems = new Set<string>()
  const tokens = marked.lexer(markdown)
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === 'html') {
      const tag = ACTIVE_TAG.exec(token.raw)?.[1]?.toLowerCase()
      if (tag) problems.add(`a <${tag}> tag`)
      if (EVENT_HANDLER.test(token.raw)) problems.add('an HTML event handler (such as onerror=)')
      if (JAVASCRIPT_URL.test(token.raw)) problems.add('a javascript: link')
    }
    if ((token.type === 'link' || token.type === 'image') && /^\s*javascript:/i.test(token.href))
      problems.add('a javascript: link')
  })
  return [...problems]
}

/** "a, b and c" */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The sentence shown when guidelines are refused. */
export function guidelinesRefusal(problems: string[]): string {
  return `These guidelines contain ${listed(problems)}, which guidelines may not hold (they are shown to every annotator). Remove ${problems.length === 1 ? 'it' : 'them'} and save again; nothing was changed.`
}

/** Where a laptop's guidelines are changed: the lead's workspace (refused here, said on the Project screen). */
export const GUIDELINES_AT_LEAD =
  "Edit them in the lead's workspace and hand out a new package, which brings them here."
