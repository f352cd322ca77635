import { judgeBatched } from './batched'
import { buildRequest, questionText } from './common'
import type { JudgeMethodImpl } from './types'

/**
 * FaaF (facts as a function): every fact of a candidate becomes one enum argument of a single
 * function the model must call. `not_clear` stays the stored verdict; the FaaF label schema folds
 * it into "unsupported" when metrics are computed, exactly where the paper maps it to False.
 */
export interface FaafVariant {
  name: 'faaf-tf' | 'faaf-tfn' | 'faaf-tf-cite' | 'faaf-tfn-cite'
  notClear: boolean
  citation: boolean
}

export const FAAF_VARIANTS: readonly FaafVariant[] = [
  { name: 'faaf-tf', notClear: false, citation: false },
  { name: 'faaf-tfn', notClear: true, citation: false },
  { name: 'faaf-tf-cite', notClear: false, citation: true },
  { name: 'faaf-tfn-cite', notClear: true, citation: true },
]

export const FAAF_TOOL_NAME = 'record_fact_checks'

function toolDescription(v: FaafVariant): string {
  const verdicts = v.notClear
    ? '"true" if the passage supports it, "false" if the passage contradicts it, or "not_clear" if the passage does not make it clear'
    : '"true" if the passage supports it and "false" otherwise'
  const cite = v.citation
    ? ' Before each verdict, fill its citation argument with the exact words of the passage that support the statement, or null if there are none.'
    : ''
  return `Records whether each statement holds according to the passage. Every fact_N argument is described by one statement; set it to ${verdicts}.${cite}`
}

export function makeFaaf(v: FaafVariant): JudgeMethodImpl {
  const values: [string, ...string[]] = v.notClear ? ['true', 'false', 'not_clear'] : ['true', 'false']
  return {
    name: v.name,
    unitKinds: ['fact'],
    schema: 'faaf',
    async judge(task, ctx) {
      const facts = task.targets.filter((t) => t.kind === 'fact')
      const others = task.targets.filter((t) => t.kind !== 'fact')
      const judged = await judgeBatched(facts, ctx, {
        keyPrefix: 'faaf',
        candidateId: task.candidate.id,
        spec: { prefix: 'fact', values, citation: v.citation },
        textOf: (t) => t.text,
        noun: 'fact',
        toolName: FAAF_TOOL_NAME,
        toolDescription: toolDescription(v),
        request: (tool, chunk) =>
          buildRequest(
            ctx,
            'faaf',
            {
              question: questionText(task.item.question),
              candidate: task.candidate.text,
              facts: chunk.map((t, i) => `fact_${i}: ${t.text}`).join('\n'),
            },
            tool,
          ),
      })
      return [
        ...judged,
        ...others.map((t) => ({
          targetId: t.targetId,
          status: 'na' as const,
          verdict: null,
          problem: `FaaF judges facts, not ${t.kind} units`,
        })),
      ]
    },
  }
}
