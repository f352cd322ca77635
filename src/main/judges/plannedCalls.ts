import type { JudgeMethod } from '../../shared/domain'
import type { ModelCapabilities } from '../providers/types'
import { maxStatementsPerCall } from './faafSchema'
import { REFCHECKER_VALUES } from './refchecker'
import type { CandidateTask, MethodSettings } from './types'

/*
 * How many provider calls a judge run plans for its candidates, as the methods make them: one
 * per target (prompt-tf, RefChecker), one per candidate or per schema-limited chunk of its
 * targets (FaaF, batched RefChecker), DCR's DCE call and, with AMC by LLM, its AMC call. A repair
 * retry is made only after a reply that could not be used, so it is not planned. Pure: it counts
 * the tasks' targets and builds no request, so planning a run costs next to nothing.
 */

const FAAF_VALUES: Partial<Record<JudgeMethod, { values: number; citation: boolean }>> = {
  'faaf-tf': { values: 2, citation: false },
  'faaf-tfn': { values: 3, citation: false },
  'faaf-tf-cite': { values: 2, citation: true },
  'faaf-tfn-cite': { values: 3, citation: true },
  'refchecker-batched': { values: REFCHECKER_VALUES.length, citation: false },
}

/** The unit kind a method judges where its other targets get no call of their own. */
const KIND_OF: Record<string, string> = { dcr: 'sentence', 'prompt-tf': 'fact', refchecker: 'triplet' }

export function plannedCalls(
  method: string,
  tasks: readonly CandidateTask[],
  settings: MethodSettings,
  capabilities: ModelCapabilities,
): number {
  const kind = method.startsWith('faaf') ? 'fact' : KIND_OF[method]
  const judged = (t: CandidateTask) =>
    kind ? t.targets.filter((x) => x.kind === kind).length : t.targets.length
  const batched = FAAF_VALUES[method as JudgeMethod]
  let n = 0
  for (const t of tasks) {
    const targets = judged(t)
    if (method === 'lexical' || targets === 0) continue
    if (method === 'prompt-tf' || method === 'refchecker') n += targets
    else if (batched)
      n += Math.ceil(targets / maxStatementsPerCall(capabilities, batched.values, batched.citation))
    else if (method === 'dcr') n += settings.amcLlm === true ? 2 : 1
    else n += 1
  }
  return n
}
