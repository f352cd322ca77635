import { z } from 'zod'
import { buildRequest, na, parseArguments, questionText, toolParameters, transportError } from './common'
import type { JudgeContext, JudgeMethodImpl, TargetInput, VerdictOutcome } from './types'

/**
 * DCR's evaluator. The divide step is done beforehand by a deterministic splitter so that each
 * sentence is a stored unit with its own target; DCE then judges all of them in one call per
 * candidate, AMC turns each finding into ±1 and the candidate score follows from the marks.
 */

export interface DcrScore {
  /** (Σ s_i − α) / (n − β), in [−1, 1] when α = β = 0. */
  z: number
  /** (z + 1) / 2: 1 is fully consistent, 0 fully inconsistent. */
  rescaled: number
  n: number
  sum: number
}

/** The DCR score of a candidate from its sentence marks; null when n − β leaves nothing to divide by. */
export function dcrScore(marks: readonly number[], alpha = 0, beta = 0): DcrScore | null {
  const n = marks.length
  const denominator = n - beta
  if (n === 0 || denominator <= 0) return null
  const sum = marks.reduce((a, b) => a + b, 0)
  const z = (sum - alpha) / denominator
  return { z, rescaled: (z + 1) / 2, n, sum }
}

export const DCE_TOOL_NAME = 'record_sentence_checks'
export const AMC_TOOL_NAME = 'record_marks'

const Decision = z.enum(['consistent', 'inconsistent'])
const DceEntry = z.strictObject({
  number: z.number().describe('The number of the candidate sentence, as listed.'),
  reason: z.string().describe('Why the sentence is or is not consistent with the reference.'),
  decision: Decision.describe('The outcome for this sentence.'),
})
const DceArgs = z.strictObject({
  sentences: z.array(DceEntry).describe('One entry per numbered candidate sentence, in order.'),
})

const AmcEntry = z.strictObject({
  number: z.number().describe('The number of the note.'),
  mark: z.enum(['+1', '-1']).describe('+1 when the note finds the sentence consistent, -1 otherwise.'),
})
const AmcArgs = z.strictObject({ marks: z.array(AmcEntry).describe('One mark per numbered note.') })

type Entries<T> = { ok: true; byNumber: Map<number, T>; ignored: string[] } | { ok: false; problem: string }

/** Reads `{list: [{number, …}]}` entry by entry so one malformed entry costs only its sentence. */
function readEntries<T extends { number: number }>(
  args: unknown,
  listKey: string,
  entry: z.ZodType<T>,
  count: number,
): Entries<T> {
  const list = z.object({ [listKey]: z.array(z.unknown()) }).safeParse(args)
  if (!list.success) return { ok: false, problem: `arguments have no "${listKey}" list` }
  const byNumber = new Map<number, T>()
  const ignored: string[] = []
  ;(list.data[listKey] as unknown[]).forEach((raw, i) => {
    const checked = entry.safeParse(raw)
    if (!checked.success) {
      ignored.push(`entry ${i + 1}: ${z.prettifyError(checked.error).replaceAll('\n', ' ')}`)
      return
    }
    const n = checked.data.number
    if (!Number.isInteger(n) || n < 1 || n > count) ignored.push(`entry ${i + 1}: no sentence numbered ${n}`)
    else if (byNumber.has(n))
      ignored.push(`entry ${i + 1}: sentence ${n} answered twice; the first answer is kept`)
    else byNumber.set(n, checked.data)
  })
  return { ok: true, byNumber, ignored }
}

const numbered = (lines: readonly string[]): string => lines.map((s, i) => `${i + 1}. ${s}`).join('\n')

interface Finding {
  target: TargetInput
  number: number
  reason: string
  decision: z.infer<typeof Decision>
}

/** AMC as an LLM call: each reason becomes +1 or −1. Returns marks by sentence number or failures. */
async function amcByLlm(
  findings: readonly Finding[],
  candidateId: number,
  ctx: JudgeContext,
): Promise<{ marks: Map<number, number>; failure?: { status: 'na' | 'error'; problem: string } }> {
  const tool = {
    name: AMC_TOOL_NAME,
    description: 'Records a +1 or -1 mark for each numbered note.',
    parameters: toolParameters(AmcArgs),
  }
  const request = buildRequest(ctx, 'dcr.amc', { reasons: numbered(findings.map((f) => f.reason)) }, tool)
  const res = await ctx.call(`dcr-amc:${candidateId}`, request)
  if (!res.ok)
    return { marks: new Map(), failure: { status: 'error', problem: `AMC call failed: ${res.error}` } }
  const args = parseArguments(res.reply)
  if (!args.ok) return { marks: new Map(), failure: { status: 'na', problem: `AMC: ${args.problem}` } }
  const entries = readEntries(args.value, 'marks', AmcEntry, findings.length)
  if (!entries.ok) return { marks: new Map(), failure: { status: 'na', problem: `AMC: ${entries.problem}` } }
  // AMC numbers its notes 1..k over the findings; map them back to sentence numbers.
  const marks = new Map<number, number>()
  findings.forEach((f, i) => {
    const e = entries.byNumber.get(i + 1)
    if (e) marks.set(f.number, e.mark === '+1' ? 1 : -1)
  })
  return { marks }
}

export const dcr: JudgeMethodImpl = {
  name: 'dcr',
  unitKinds: ['sentence'],
  schema: 'dcr',
  async judge(task, ctx) {
    const sentences = task.targets.filter((t) => t.kind === 'sentence')
    const others = task.targets
      .filter((t) => t.kind !== 'sentence')
      .map((t) => na(t, `DCR judges sentence units, not ${t.kind} units`))
    if (sentences.length === 0) return others

    const tool = {
      name: DCE_TOOL_NAME,
      description: 'Records, for each numbered candidate sentence, the reason and the consistency decision.',
      parameters: toolParameters(DceArgs),
    }
    const request = buildRequest(
      ctx,
      'dcr.dce',
      {
        question: questionText(task.item.question),
        reference: task.item.reference,
        candidate: task.candidate.text,
        sentences: numbered(sentences.map((t) => t.text)),
      },
      tool,
    )
    const res = await ctx.call(`dcr-dce:${task.candidate.id}`, request)
    if (!res.ok) return [...sentences.map((t) => transportError(t, res.error)), ...others]
    const args = parseArguments(res.reply)
    const entries = args.ok ? readEntries(args.value, 'sentences', DceEntry, sentences.length) : args
    if (!entries.ok) return [...sentences.map((t) => na(t, entries.problem)), ...others]

    const findings: Finding[] = []
    for (const [i, target] of sentences.entries()) {
      const e = entries.byNumber.get(i + 1)
      if (e) findings.push({ target, number: i + 1, reason: e.reason, decision: e.decision })
    }
    const useLlm = ctx.settings.amcLlm === true
    const amc = useLlm
      ? await amcByLlm(findings, task.candidate.id, ctx)
      : { marks: new Map(findings.map((f) => [f.number, f.decision === 'consistent' ? 1 : -1])) }

    const allMarked = sentences.every((_, i) => amc.marks.has(i + 1))
    const score = allMarked
      ? dcrScore(
          sentences.map((_, i) => amc.marks.get(i + 1)!),
          ctx.settings.alpha ?? 0,
          ctx.settings.beta ?? 0,
        )
      : null
    const shared = {
      amc: useLlm ? 'llm' : 'decision',
      dcr: score,
      ...(entries.ignored.length > 0 ? { ignoredEntries: entries.ignored } : {}),
    }

    const judged = sentences.map((t, i): VerdictOutcome => {
      const number = i + 1
      const finding = findings.find((f) => f.number === number)
      if (!finding) return na(t, `no decision for sentence ${number}`, shared)
      const mark = amc.marks.get(number)
      const detail = { ...shared, number, decision: finding.decision }
      if (mark === undefined) {
        const failure = 'failure' in amc ? amc.failure : undefined
        if (failure?.status === 'error')
          return { ...transportError(t, failure.problem), reason: finding.reason, detail }
        return {
          ...na(t, failure?.problem ?? `AMC gave no mark for sentence ${number}`, detail),
          reason: finding.reason,
        }
      }
      return {
        targetId: t.targetId,
        status: 'ok',
        verdict: mark > 0 ? 'consistent' : 'inconsistent',
        score: mark,
        reason: finding.reason,
        detail: { ...detail, mark },
      }
    })
    return [...judged, ...others]
  },
}
