/**
 * Splits a byte stream into complete lines. A last line without its newline is handed over only
 * if it parses as JSON: a results file cut mid-line must not turn into half a record.
 */
export async function forEachJsonLine(
  body: AsyncIterable<Uint8Array>,
  onLine: (value: unknown) => void,
): Promise<void> {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of body) {
    rest += decoder.decode(chunk, { stream: true })
    let nl = rest.indexOf('\n')
    while (nl !== -1) {
      const line = rest.slice(0, nl).trim()
      rest = rest.slice(nl + 1)
      if (line !== '') onLine(JSON.parse(line))
      nl = rest.indexOf('\n')
    }
  }
  rest += decoder.decode()
  const last = rest.trim()
  if (last === '') return
  let value: unknown
  try {
    value = JSON.parse(last)
  } catch {
    throw new Error('the results file ended in the middle of a line')
  }
  onLine(value)
}

/** HTTP status of an Anthropic error type, so batch errors are classified like direct ones. */
export function anthropicErrorStatus(type: string | undefined): number | undefined {
  switch (type) {
    case 'invalid_request_error':
      return 400
    case 'authentication_error':
      return 401
    case 'permission_error':
      return 403
    case 'not_found_error':
      return 404
    case 'request_too_large':
      return 413
    case 'rate_limit_error':
      return 429
    case 'api_error':
      return 500
    case 'overloaded_error':
      return 529
    default:
      return undefined
  }
}
