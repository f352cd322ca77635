// judges/ owns the judge methods (FaaF, prompt-tf, RefChecker, DCR, holistic, lexical), their
// prompt templates and the RAI improver; this registry lists them. See README.md here.
import type { JudgeMethod } from '../../shared/domain'
import type { LlmRequest } from '../providers/types'
import { onePerTarget } from './common'
import { dcr } from './dcr'
import { FAAF_VARIANTS, makeFaaf } from './faaf'
import { holistic } from './holistic'
import { lexical } from './lexical'
import { promptTf } from './promptTf'
import { IMPROVER as RAI_IMPROVER } from './rai'
import { refchecker, refcheckerBatched } from './refchecker'
import {
  type CandidateTask,
  type ImproverImpl,
  type JudgeContext,
  type JudgeMethodImpl,
  requestOf,
} from './types'

/**
 * Every method is wrapped so that, whatever it does, the engine receives exactly one outcome per
 * target, in target order (design: a target is never silently dropped from the denominator).
 */
function guarded(impl: JudgeMethodImpl): JudgeMethodImpl {
  return {
    ...impl,
    async judge(task, ctx) {
      return onePerTarget(task.targets, await impl.judge(task, ctx))
    },
  }
}

const faaf = Object.fromEntries(FAAF_VARIANTS.map((v) => [v.name, makeFaaf(v)])) as Record<
  (typeof FAAF_VARIANTS)[number]['name'],
  JudgeMethodImpl
>

export const METHODS: Record<JudgeMethod, JudgeMethodImpl> = {
  'prompt-tf': guarded(promptTf),
  'faaf-tf': guarded(faaf['faaf-tf']),
  'faaf-tfn': guarded(faaf['faaf-tfn']),
  'faaf-tf-cite': guarded(faaf['faaf-tf-cite']),
  'faaf-tfn-cite': guarded(faaf['faaf-tfn-cite']),
  refchecker: guarded(refchecker),
  'refchecker-batched': guarded(refcheckerBatched),
  dcr: guarded(dcr),
  holistic: guarded(holistic),
  lexical: guarded(lexical),
}

export const IMPROVER: ImproverImpl = RAI_IMPROVER

/** Template names each method sends, for the template editor and the run snapshot. */
export const METHOD_TEMPLATES: Record<JudgeMethod, readonly string[]> = {
  'prompt-tf': ['prompt-tf'],
  'faaf-tf': ['faaf'],
  'faaf-tfn': ['faaf'],
  'faaf-tf-cite': ['faaf'],
  'faaf-tfn-cite': ['faaf'],
  refchecker: ['refchecker.check'],
  'refchecker-batched': ['refchecker.check-batched'],
  dcr: ['dcr.dce', 'dcr.amc'],
  holistic: ['holistic'],
  lexical: [],
}

export interface PreviewedCall {
  key: string
  request: LlmRequest
}

/**
 * The exact first-round requests a method would send for one candidate, without sending any:
 * the preview shown before a run starts. Follow-up calls that depend on a reply (DCR's AMC, a
 * repair retry) cannot be known in advance and are not listed.
 */
export async function previewRequests(
  method: JudgeMethod,
  task: CandidateTask,
  ctx: Omit<JudgeContext, 'call'>,
): Promise<PreviewedCall[]> {
  const calls: PreviewedCall[] = []
  await METHODS[method].judge(task, {
    ...ctx,
    call: async (key, request) => {
      calls.push({ key, request: requestOf(request) })
      return { ok: false, error: 'preview only: nothing was sent' }
    },
  })
  return calls
}
