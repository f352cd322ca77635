import { NA_SCOPE_METHODS, naScopeOf, naScopeWords } from '../../shared/naScope'
import { ServiceError } from '../app/errors'
import { wordingWarning } from '../judges/templateWording'
import {
  type CallResult,
  type CandidateTask,
  type JudgeContext,
  type JudgeMethodImpl,
  requestOf,
  type TemplateSet,
} from '../judges/types'
import { createProvider } from '../providers'
import { type OutputPath, outputPath } from '../providers/outputPath'
import type { LlmRequest } from '../providers/types'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import type { RunConfig } from './config'
import { missingUnits, type RunRequest, snapshotConfig } from './create'
import type { MethodRegistry } from './registry'
import { loadJudgeTasks } from './tasks'

export interface PreviewCall {
  key: string
  request: LlmRequest
  /** The exact JSON body the SDK would send (no headers, so no key). */
  wire: Record<string, unknown>
  /** How the reply's structure is obtained (tool call, json_schema, …) and why. */
  path: OutputPath
  /** The template asks for a function call on a path with no tools (or for JSON on a tools path). */
  warning: string | null
  /** What becomes of a reply with an invalid argument (FaaF and the batched checker), else null. */
  reading: string | null
}

export interface RunPreview {
  /** Candidates the run would judge, and the targets in them. */
  candidates: number
  targets: number
  /** The first candidate's first-round requests; follow-ups that depend on a reply are not known yet. */
  calls: PreviewCall[]
}

/**
 * Builds the requests of the first candidate exactly as a run would, without sending anything:
 * the method runs with a `call` that records the request and answers "not sent".
 */
export async function previewRun(db: Db, r: RunRequest, registry: MethodRegistry): Promise<RunPreview> {
  const method = registry.judges[r.method]
  if (!method) throw new Error(`Unknown judge method "${r.method}"`)
  const config = snapshotConfig(db, r)
  const missing = missingUnits(
    db,
    r.datasetId,
    r.method,
    method.unitKinds,
    r.slice ?? {},
    'nothing to preview',
  )
  if (missing) throw new ServiceError('bad_input', missing)
  const tasks = loadJudgeTasks(db, r.datasetId, method.unitKinds, r.slice ?? {})
  const calls = tasks[0] ? await firstCandidateCalls(db, config, r.datasetId, tasks[0], method) : []
  return { candidates: tasks.length, targets: tasks.reduce((n, t) => n + t.targets.length, 0), calls }
}

/**
 * The requests a method makes for one candidate, built as a run builds them with `config` (its
 * templates, settings and capabilities) and sent nowhere: the method runs with a `call` that
 * records the request and answers "not sent".
 */
export async function firstCandidateCalls(
  db: Db,
  config: RunConfig,
  datasetId: number,
  task: CandidateTask,
  method: JudgeMethodImpl,
): Promise<PreviewCall[]> {
  const client = createProvider({
    provider: config.provider,
    model: config.model,
    baseUrl: config.baseUrl,
    apiKey: null,
    capabilities: config.capabilities,
    timeoutMs: config.timeoutMs,
  })
  const calls: PreviewCall[] = []
  const templates: TemplateSet = {}
  for (const [name, t] of Object.entries(config.templates))
    templates[name] = { ...(t.system !== undefined ? { system: t.system } : {}), user: t.user }
  const ctx: JudgeContext = {
    settings: config.settings,
    templates,
    capabilities: config.capabilities,
    labelSchema: getDataset(db, datasetId).labelSchema,
    call: async (key, build): Promise<CallResult> => {
      const request = requestOf(build)
      const path = outputPath(
        request,
        config.capabilities,
        config.provider === 'anthropic' ? 'anthropic' : 'openai',
      )
      // The template's words only: the JSON description a fallback path adds goes on the wire.
      const words = [request.system ?? '', ...request.messages.map((m) => m.content)].join('\n')
      calls.push({
        key,
        request,
        wire: client.wireBody(request),
        path,
        warning: wordingWarning(words, path.kind),
        reading: replyReading(config),
      })
      return { ok: false, error: 'preview only: nothing was sent' }
    },
  }
  await method.judge(task, ctx)
  return calls
}

/** The rule a run reads function-call replies by, in words, for the methods it applies to. */
function replyReading(config: RunConfig): string | null {
  if (!NA_SCOPE_METHODS.includes(config.method)) return null
  return naScopeWords(naScopeOf(config.settings), config.method === 'refchecker-batched' ? 'claim' : 'fact')
}
