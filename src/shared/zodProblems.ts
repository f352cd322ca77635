import type { z } from 'zod'

/**
 * A zod refusal as one line a person can read, "field: problem; other[0].field: problem".
 * A ZodError's own message is its issue list as JSON, and zod's pretty form takes two lines per
 * issue; a refusal printed by the CLI or shown in the app is one line.
 */
export function zodProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const at = issue.path
        .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
        .join('')
      return at ? `${at}: ${issue.message}` : issue.message
    })
    .join('; ')
}
