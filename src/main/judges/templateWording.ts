import type { OutputPathKind } from '../providers/outputPath'

/*
 * A template's own words about how to answer, against the path its request takes
 * (providers/outputPath.ts). Templates edited before `{{answer_by}}` existed often still say
 * "call the function"; on a path that sends no tools (a JSON-schema, JSON-mode or prompt-only
 * fallback for a local model, or a plain-text method) the model is offered no function, and the
 * wording asks for what the request cannot take. The preview says so; the template is the user's
 * and is never rewritten. Pure.
 */

const ASKS_FOR_A_CALL =
  /\b(?:call|calling|invoke|invoking|use|using)\s+(?:the|a|this|your)\s+(?:function|tool)\b/i
const ASKS_FOR_JSON =
  /\b(?:reply|replying|respond|responding|answer|answering|return|returning|output)\b[^.\n]{0,40}\bJSON\b/i

const SUGGEST =
  'Put {{answer_by}} where the template says how to answer: it reads "calling the function" or "replying with the JSON object described below", whichever the request takes.'

/** What to tell the user about the template's answering words on this path, or null. */
export function wordingWarning(text: string, path: OutputPathKind): string | null {
  // A plain-text method's templates have no {{answer_by}}: their reply is read as words.
  const suggest =
    path === 'text' ? ' This method reads a plain-text reply; ask for one in words.' : ` ${SUGGEST}`
  if (path !== 'tool-call' && ASKS_FOR_A_CALL.test(text))
    return `The template asks the model to call a function, but this request sends no tools (${path} path): no function is offered to call.${suggest}`
  if (path === 'tool-call' && ASKS_FOR_JSON.test(text))
    return `The template asks for a JSON reply, but this request is answered by a forced function call.${suggest}`
  return null
}
