/**
 * How far a function-call reply's validation failure reaches (FaaF and the batched RefChecker
 * checker). FaaF's paper makes one invalid argument fail the function's invocation, so every fact
 * of that call is N/A and none of them enters the error rate: `call`, the default. `field` keeps
 * the valid arguments of a broken reply (one bad fact costs one N/A), for people who would rather
 * salvage a weak model's partly valid replies than reproduce the paper's N/A column.
 */
export const NA_SCOPES = ['call', 'field'] as const
export type NaScope = (typeof NA_SCOPES)[number]

export const DEFAULT_NA_SCOPE: NaScope = 'call'

export const naScopeOf = (settings: { naScope?: NaScope | undefined }): NaScope =>
  settings.naScope ?? DEFAULT_NA_SCOPE

/** The methods whose replies the rule applies to. */
export const NA_SCOPE_METHODS: readonly string[] = [
  'faaf-tf',
  'faaf-tfn',
  'faaf-tf-cite',
  'faaf-tfn-cite',
  'refchecker-batched',
]

/** The choice in words, as the Judges view offers it under "An invalid argument makes N/A". */
export const NA_SCOPE_LABELS: Record<NaScope, string> = {
  call: 'the whole call (as the FaaF paper)',
  field: 'only that argument',
}

/** How a reply will be read, for the request preview: what becomes of an invalid argument. */
export function naScopeWords(scope: NaScope, noun: string): string {
  return scope === 'call'
    ? `If any argument of the reply fails validation (missing, null, or not an allowed value), every ${noun} of this call is N/A and none of them counts in the error rate, as in the FaaF paper. The N/A reason names the arguments at fault.`
    : `If an argument of the reply fails validation, only that ${noun} is N/A; the valid arguments of the same reply are kept as verdicts (not the FaaF paper's rule, which fails the whole call).`
}
