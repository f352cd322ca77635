/**
 * Python literals for the WikiEvalFacts layout. The FaaF release stores each variant's human
 * labels as the `repr` of a Python dict, so readers there use `ast.literal_eval`; anything we
 * write must survive that, whatever quotes, backslashes or line breaks a fact holds.
 */

/** A single-quoted Python str literal that `ast.literal_eval` turns back into `text`. */
export function pyString(text: string): string {
  let out = "'"
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (ch === '\\') out += '\\\\'
    else if (ch === "'") out += "\\'"
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    // Other control characters would be legal inside the quotes but invisible and easy to
    // mangle in a CSV viewer; escaping them keeps the file plain text.
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`
    else if (code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16)}`
    else out += ch
  }
  return `${out}'`
}

/** `{'fact': 'True', ...}` in insertion order, the shape of `human_evaluated_facts_*`. */
export function pyDict(entries: Iterable<readonly [string, string]>): string {
  const parts: string[] = []
  for (const [k, v] of entries) parts.push(`${pyString(k)}: ${pyString(v)}`)
  return `{${parts.join(', ')}}`
}

/**
 * The facts column (`gt_facts` in the release): one fact per line, each line starting with "- ". A line break inside
 * a fact would split it in two on the way back, so it becomes a space.
 */
export function factsList(facts: readonly string[]): string {
  return facts.map((f) => `- ${flattenFact(f)}`).join('\n')
}

export function flattenFact(fact: string): string {
  return fact.replace(/\s*[\r\n]+\s*/g, ' ').trim()
}
