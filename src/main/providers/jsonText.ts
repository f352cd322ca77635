import type { LlmTool } from './types'

/**
 * The instruction added to the prompt when a server cannot be made to call a tool: the same
 * schema the tool would have had, asked for as a bare JSON object in the reply.
 */
export function jsonFallbackInstruction(tool: LlmTool): string {
  return [
    `Answer by filling in "${tool.name}" (${tool.description}).`,
    'Reply with one JSON object and nothing else: no prose, no code fence.',
    'The object must satisfy this JSON Schema:',
    JSON.stringify(tool.parameters),
  ].join('\n')
}

/** Index just past the JSON value that opens at `start` (a `{`), or -1 when it never closes. */
function closingBrace(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{') depth++
    else if (ch === '}') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

function parsesToObject(candidate: string): boolean {
  try {
    const value: unknown = JSON.parse(candidate)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}

/**
 * Finds the JSON object a model wrote in free text: inside a code fence if there is one,
 * otherwise the first balanced `{…}` that parses. Returns its exact text, or null.
 */
export function extractJsonObject(text: string): string | null {
  const fences = [...text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)]
  const sources = [...fences.map((m) => m[1] ?? ''), text]
  for (const source of sources) {
    for (let i = source.indexOf('{'); i !== -1; i = source.indexOf('{', i + 1)) {
      const end = closingBrace(source, i)
      if (end === -1) break
      const candidate = source.slice(i, end)
      if (parsesToObject(candidate)) return candidate
    }
  }
  return null
}
