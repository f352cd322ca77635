import type { judgesCalls } from '../../../shared/contract/judges'
import { SourceError, withSources } from '../../annotate/upload'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { leftBatchWords } from '../../batches/leave'
import { batchStatus } from '../../batches/status'
import { blindGate } from '../../blind'
import { ImportError } from '../../import/errors'
import { importVerdicts } from '../../import/verdicts'
import { latestTemplates, saveTemplate, templateHistory } from '../../prompts/store'
import { PROVIDER_NAMES } from '../../providers/client'
import { KEY_ENV_VARS, keyStore, missingKey } from '../../providers/keys'
import { getModel, listModels, saveModel } from '../../providers/models'
import { detectModel } from '../../providers/probe'
import { BUILTIN_REGISTRY } from '../../runs/builtin'
import { getConfig, listConfigs, requestFromConfig, saveConfig } from '../../runs/configs'
import { createRuns, improveRequest } from '../../runs/create'
import { improvementPlan, nothingToImprove } from '../../runs/improve'
import { liveLease, RunLeaseHeld } from '../../runs/lease'
import { previewRun } from '../../runs/preview'
import { candidateVerdicts, rewrites, runInfos } from '../../runs/queries'
import { getRun, runSummary, setRunMode } from '../../runs/repo'
import { candidateVisible } from '../../store/repos/candidateVisible'
import { datasetVisible, getDataset } from '../../store/repos/datasets'
import type { Handler, Handlers } from '../dispatch'
import { shownNames } from '../sources/shownNames'

/** A run driven by another process is a conflict the person can act on, not a failure. */
function leaseRefusal<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof RunLeaseHeld) throw new ServiceError('conflict', error.message)
    throw error
  }
}

/**
 * Imports verdicts files as `factlab import-verdicts` does (one run per file, all or none): the
 * same importer, so both make the same runs. A refusal is in the importer's words, naming each
 * file as the person picked it rather than the temporary folder an upload is read from.
 */
async function importVerdictsFiles(ctx: AppContext, input: Parameters<Handler<'judges.importVerdicts'>>[0]) {
  const { datasetId, source, moreSources, pickedPaths, format, model, method, skipBadRows, unitBase } = input
  if (!datasetVisible(ctx.workspace.db, datasetId))
    throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
  const dataset = getDataset(ctx.workspace.db, datasetId)
  const all = [source, ...moreSources]
  const shown = shownNames(all, pickedPaths)
  let held: string[] = []
  const known = (text: string) => held.reduce((t, file, i) => t.split(file).join(shown[i]!), text)
  try {
    const report = await withSources(all, { consume: true }, (files) => {
      held = files
      return importVerdicts(ctx.workspace, {
        file: files.length === 1 ? files[0]! : files,
        datasetName: dataset.name,
        ...(format ? { format } : {}),
        ...(model ? { model } : {}),
        ...(method ? { method } : {}),
        skipBadRows,
        unitBase,
        recordedAs: shown[0],
        shownNames: shown,
      })
    })
    return {
      runId: report.runId,
      verdicts: report.verdicts,
      na: report.na,
      skipped: report.skipped.map(({ at, reason, file }) =>
        file === undefined ? { at, reason } : { at, reason, file: known(file) },
      ),
      ...(report.runs ? { runs: report.runs.map((r) => ({ ...r, file: known(r.file) })) } : {}),
    }
  } catch (error) {
    if (!(error instanceof ImportError || error instanceof SourceError)) throw error
    throw new ServiceError('bad_input', known(error.message))
  }
}

/**
 * Judges area: providers and keys, models, judge configs, templates, preview and runs. Runs
 * execute in this process in the background; progress reaches the UI as `runs.progress`.
 */
export function judgesHandlers(ctx: AppContext): Pick<Handlers, keyof typeof judgesCalls> {
  // The engine of the current workspace, built by the composition root (app/services.ts).
  const engine = () => ctx.runs
  const launch = (ids: number[]) => {
    const e = engine()
    // Repeats run one after another so they do not compete for the same rate limit. A repeat
    // paused or cancelled while it waited stays so; one another process took first is refused,
    // and the runs list shows that process as its driver.
    void (async () => {
      for (const id of ids) {
        try {
          if (getRun(db(), id).status !== 'queued') continue
          await e.start(id)
        } catch {
          // See above.
        }
      }
    })()
  }
  const db = () => ctx.workspace.db

  return {
    'judges.importVerdicts': (input) => importVerdictsFiles(ctx, input),
    'judges.keys': () => {
      const store = keyStore()
      return {
        source: store.source,
        plainTextOnly: store.plainTextOnly?.() ?? false,
        providers: PROVIDER_NAMES.map((provider) => ({
          provider,
          hasKey: provider === 'lexical' || store.get(provider) !== null,
          envVar: provider === 'lexical' ? null : KEY_ENV_VARS[provider],
        })),
      }
    },
    'judges.setKey': ({ provider, key, confirmPlainText }) => {
      const store = keyStore()
      if (!store.set)
        throw new ServiceError(
          'failed',
          'In browser mode keys come from environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, FACTLAB_OPENAI_COMPATIBLE_API_KEY); set one and restart `npm run serve`.',
        )
      if (provider === 'lexical') throw new ServiceError('bad_input', 'The lexical baseline needs no key')
      store.set(provider, key, { confirmPlainText })
      return { ok: true as const }
    },
    'judges.models': () => listModels(db()),
    'judges.model': ({ provider, model, baseUrl }) => getModel(db(), provider, model, baseUrl),
    'judges.saveModel': (m) => saveModel(db(), m),
    'judges.detectModel': async ({ provider, model, baseUrl }) => {
      // Without a key the probe could only fail at the network, with a vaguer message than this.
      const missing = provider === 'openai' ? missingKey(provider) : null
      if (missing) throw new ServiceError('bad_input', missing)
      try {
        const key = provider === 'lexical' ? null : keyStore().get(provider)
        return await detectModel(db(), { provider, model, baseUrl, apiKey: key })
      } catch (error) {
        throw new ServiceError('failed', error instanceof Error ? error.message : String(error))
      }
    },
    'judges.configs': () => listConfigs(db()),
    'judges.saveConfig': (c) => {
      try {
        return saveConfig(db(), c)
      } catch (error) {
        throw new ServiceError('conflict', error instanceof Error ? error.message : String(error))
      }
    },
    'judges.templates': () => latestTemplates(db()),
    'judges.templateHistory': ({ name }) => templateHistory(db(), name),
    'judges.saveTemplate': (t) => {
      try {
        return saveTemplate(db(), t)
      } catch (error) {
        throw new ServiceError('bad_input', error instanceof Error ? error.message : String(error))
      }
    },
    'judges.preview': async ({ datasetId, configId, slice }) => {
      const c = getConfig(db(), configId)
      if (!BUILTIN_REGISTRY.judges[c.method])
        throw new ServiceError('bad_input', `Preview shows judge requests; ${c.method} is an extraction job`)
      return previewRun(db(), { ...requestFromConfig(c, datasetId), slice }, BUILTIN_REGISTRY)
    },
    'judges.start': ({ datasetId, configId, slice, repeat, mode }) => {
      const c = getConfig(db(), configId)
      const noKey = missingKey(c.provider)
      if (noKey) throw new ServiceError('failed', noKey)
      if (mode === 'batch' && c.provider !== 'openai' && c.provider !== 'anthropic')
        throw new ServiceError(
          'bad_input',
          `Batch mode is for openai and anthropic; ${c.provider} runs call by call`,
        )
      const runIds = createRuns(db(), { ...requestFromConfig(c, datasetId), slice, mode }, repeat)
      launch(runIds)
      return { runIds }
    },
    'judges.improve': ({ runId, rounds }) => {
      const source = getRun(db(), runId)
      if (source.method !== 'dcr') throw new ServiceError('bad_input', `Run ${runId} is not a DCR run`)
      // RAI rewrites the sentences a DCR run found inconsistent: without verdicts there are none.
      if (runSummary(db(), runId).verdicts === 0)
        throw new ServiceError(
          'bad_input',
          `Run ${runId} has no DCR verdicts, so there is nothing to improve; judge the dataset's sentences with dcr first`,
        )
      // N/A sentences are not inconsistent: a run with nothing else adds no variant and says so.
      const nothing = nothingToImprove(improvementPlan(db(), runId), runId)
      if (nothing) throw new ServiceError('bad_input', nothing)
      const [id] = createRuns(db(), improveRequest(source, rounds))
      launch([id!])
      return { runId: id! }
    },
    'judges.improvePlan': ({ runId }) => {
      getRun(db(), runId)
      const plan = improvementPlan(db(), runId)
      return { ...plan, nothing: nothingToImprove(plan, runId) }
    },
    'judges.runs': ({ datasetId }) => runInfos(db(), datasetId, (id) => engine().isActive(id)),
    'judges.pause': ({ runId }) => {
      leaseRefusal(() => engine().pause(runId))
      return { ok: true as const }
    },
    'judges.cancel': ({ runId }) => {
      leaseRefusal(() => engine().cancel(runId))
      return { ok: true as const }
    },
    'judges.resume': async ({ runId, mode, batchPollMs }) => {
      const run = getRun(db(), runId)
      if (run.status === 'cancelled')
        throw new ServiceError('conflict', `Run ${runId} was cancelled; start a new run`)
      if (run.status === 'done') throw new ServiceError('conflict', `Run ${runId} is already done`)
      if (mode === 'batch' && run.provider !== 'openai' && run.provider !== 'anthropic')
        throw new ServiceError(
          'bad_input',
          `Batch mode is for openai and anthropic; run ${runId} uses ${run.provider}`,
        )
      let note: string | undefined
      if (mode === 'sync' && run.config.mode === 'batch') {
        // Checked before anything is cancelled: a run driven elsewhere keeps its batches.
        const lease = liveLease(db(), runId)
        if (engine().isActive(runId) || lease)
          throw new ServiceError('conflict', `Run ${runId} is running; pause it before it goes call by call`)
        try {
          const left = await engine().cancelBatches(runId)
          if (left.length > 0) note = leftBatchWords(left)
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error)
          throw new ServiceError(
            'conflict',
            `Could not cancel run ${runId}'s open batch at the provider (${why}); the run stays in batch mode, so no request is paid twice. Try again, or resume it in batch mode.`,
          )
        }
      }
      if (mode) setRunMode(db(), runId, mode)
      const poll =
        batchPollMs === undefined
          ? {}
          : { batchPoll: { firstMs: batchPollMs, maxMs: Math.max(batchPollMs, 60_000) } }
      // Claimed here, not in the background, so a run driven elsewhere is refused to the caller.
      const running = leaseRefusal(() => engine().start(runId, poll))
      running.catch(() => undefined)
      return { ok: true as const, ...(note ? { note } : {}) }
    },
    'judges.batches': async ({ runId }) => batchStatus(db(), runId),
    'judges.rewrites': ({ datasetId }) => rewrites(db(), datasetId),
    'judges.candidateVerdicts': ({ candidateId, viewer }) => {
      // Like every call naming a row: a candidate of a dataset still being imported does not exist yet.
      if (!candidateVisible(db(), candidateId))
        throw new ServiceError('not_found', `No candidate with id ${candidateId}`)
      const all = candidateVerdicts(db(), candidateId)
      const owner = db()
        .prepare(
          'SELECT dataset_id AS id FROM items WHERE id = (SELECT item_id FROM candidates WHERE id = ?)',
        )
        .get(candidateId) as { id: number } | undefined
      if (!owner) return all
      const gate = blindGate(db(), owner.id, viewer, [...new Set(all.map((v) => v.targetId))])
      return all.filter((v) => gate.reveals(v.targetId))
    },
  }
}
