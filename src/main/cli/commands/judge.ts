import type { Command } from 'commander'
import { batchCountWords, batchIdWords, batchRefused, batchStateWords } from '../../../shared/batchWords'
import type { EventPayload } from '../../../shared/contract'
import type { BatchStatusInfo } from '../../../shared/contract/runs'
import {
  type CostSplit,
  costSplitFromJson,
  costSplitText,
  SPLIT_PARTS_UNPRICED,
  splitIsEmpty,
  splitPartsUnpriced,
} from '../../../shared/costSplit'
import { JUDGE_METHODS } from '../../../shared/domain'
import { countOf } from '../../../shared/plural'
import { callWords } from '../../../shared/runCalls'
import { expectedAmount, runCostParts, runCostText } from '../../../shared/runNames'
import type { Workspace } from '../../app/workspace'
import { BUILTIN_REGISTRY } from '../../runs/builtin'
import { createRuns } from '../../runs/create'
import { resumeHint } from '../../runs/failureAdvice'
import { improvementReport, type RoundReport } from '../../runs/improve'
import { RunLeaseHeld } from '../../runs/lease'
import { LEASE_STALE_MS } from '../../runs/leaseRules'
import { previewRun } from '../../runs/preview'
import { getRun, type RunSummary } from '../../runs/repo'
import { runFailures } from '../../verdicts/failures'
import {
  CliError,
  cliProgress,
  EXIT,
  parseAtLeastOne,
  parsePositiveInt,
  printResult,
  runIdArg,
} from '../util'
import { knownRun, LEXICAL_METRICS, lexicalSettings, unpricedNote } from './judgeChecks'
import {
  type CommonFlags,
  NA_SCOPE_HELP,
  naScopeFlag,
  type ProviderFlags,
  requestFromFlags,
  withProviderOptions,
} from './judgeFlags'
import { type Session, withWorkspace } from './session'

interface RunFlags extends ProviderFlags {
  method: string
  mode?: string
  pollMs?: string
  promptCache?: boolean
  repeat?: string
  parseMode?: string
  naScope?: string
  lexicalMetric?: string
  lexicalThreshold?: string
  lexicalTokens?: string
}

/**
 * Runs (or resumes) one run with a progress bar; Ctrl-C pauses it so `judge resume` can pick
 * it up later without repeating a finished call. A run another process is driving (the app,
 * browser mode, another terminal) is refused before any call is made.
 */
export async function driveRun(
  s: Session,
  runId: number,
  json: boolean,
  pollMs?: number,
): Promise<RunSummary> {
  const bar = cliProgress(`run ${runId}`, undefined, json)
  // The session's engine is the one the composition root built for this workspace.
  const engine = s.ctx.runs
  const stopBar = s.ctx.events.subscribe((name, payload) => {
    if (name !== 'runs.progress') return
    const p = payload as EventPayload<'runs.progress'>
    if (p.runId === runId) bar.update(p.done, p.total)
  })
  const onSigint = () => engine.pause(runId)
  process.once('SIGINT', onSigint)
  try {
    return await engine.start(
      runId,
      pollMs !== undefined ? { batchPoll: { firstMs: pollMs, maxMs: Math.max(pollMs, 60_000) } } : {},
    )
  } catch (error) {
    if (error instanceof RunLeaseHeld) throw new CliError(error.message)
    throw error
  } finally {
    process.off('SIGINT', onSigint)
    stopBar()
    bar.stop()
  }
}

/** A run summary's counts as the Judges view and `judge status` read them. */
const countsOf = (s: RunSummary) => ({
  status: s.status,
  calls: s.calls,
  cached: s.cached,
  callErrors: s.callErrors,
  totalCalls: s.total_calls,
})

/** The CLI's money: four places, no currency sign (the prices are whatever currency they were entered in). */
const cliMoney = (x: number) => x.toFixed(4)

/** The tokens by price under a run's line, where a provider was paid at all (shared/costSplit.ts). */
function splitLine(split: CostSplit, cost: number): string[] {
  if (splitIsEmpty(split)) return []
  const why = splitPartsUnpriced(split, cost) ? ` (${SPLIT_PARTS_UNPRICED})` : ''
  return [`  ${costSplitText(split, cliMoney)}${why}`]
}

function human(s: RunSummary): string {
  // Every call made, as `judge status` and the Judges view count them: failed and reused ones said apart.
  // A run with no price has an unknown cost, not a free one; one whose replies were all reused replayed
  // another; one some of whose calls went through a batch says how many paid the batch price.
  const { amount, marks } = runCostParts({
    ...countsOf(s),
    cost: s.cost,
    costBasis: s.cost_basis,
    batchCalls: s.batch_calls,
  })
  const cost =
    amount === null
      ? `cost unknown (${marks.join(', ')})`
      : `cost ${cliMoney(amount)}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`
  return [
    `run ${s.run}: ${s.status} — ${countOf(s.verdicts, 'verdict')}, ${s.na} N/A, ${countOf(s.errors, 'error')}; ${callWords(countsOf(s))}, ${s.prompt_tokens}+${s.completion_tokens} tokens, ${cost}`,
    ...splitLine(costSplitFromJson(s.cost_split), s.cost),
  ].join('\n')
}

/**
 * The cost so far and what the run is heading for, never a 0.0000 that stands for "no price":
 * the same words `judge run`, `metrics` and the Judges view use.
 */
function statusCostLine(st: BatchStatusInfo): string {
  const amount = expectedAmount(st)
  const expected = amount === null ? 'expected cost unknown' : `expected ${cliMoney(amount)}`
  return `cost so far ${runCostText(st, cliMoney)}, ${expected} (${st.expectedBasis})`
}

function modeOf(raw: string | undefined): 'sync' | 'batch' | undefined {
  if (raw === undefined) return undefined
  if (raw !== 'sync' && raw !== 'batch')
    throw new CliError(`--mode must be sync or batch, got "${raw}"`, EXIT.usage)
  return raw
}

/** Exit 1 when a run did not finish, with the reason the run recorded and how to go on. */
function exitFor(summaries: RunSummary[], ws: Workspace): void {
  const failed = summaries.find((s) => s.status !== 'done')
  if (!failed) return
  const why = getRun(ws.db, failed.run).error
  // A run whose calls all failed for a reason resuming cannot cure says so (runs/failureAdvice.ts).
  const failure = failed.status === 'failed' ? (runFailures(ws.db, failed.run).first?.name ?? null) : null
  throw new CliError(
    `run ${failed.run} ended ${failed.status}${why ? `: ${why.replace(/\.$/, '')}` : ''}; ${resumeHint(failed.run, failure)}`,
  )
}

function report(json: boolean, summaries: RunSummary[], ws: Workspace): void {
  const notes = summaries.flatMap((s) => {
    const run = getRun(ws.db, s.run)
    return [run.error, unpricedNote(run, s)].filter((n): n is string => Boolean(n))
  })
  printResult(json, summaries.length === 1 ? summaries[0] : summaries, () =>
    [...summaries.map(human), ...[...new Set(notes)].map((n) => `note: ${n}`)].join('\n'),
  )
  exitFor(summaries, ws)
}

const NO_PROMPT_CACHE =
  'per-fact and per-triplet methods: send no prompt-cache breakpoint (Anthropic; OpenAI caches shared prefixes by itself)'

export function registerJudgeCommands(program: Command): void {
  const judge = program
    .command('judge')
    .description('Run LLM judges (and the lexical baseline) over a dataset')

  withProviderOptions(judge.command('run').description('Judge a dataset with one method'))
    .requiredOption('--method <name>', JUDGE_METHODS.join(', '))
    .option('--repeat <k>', 'run the same config K times, to measure run-to-run variance')
    .option('--parse-mode <mode>', 'prompt-tf: word-match or strict')
    .option('--na-scope <scope>', NA_SCOPE_HELP)
    .option(
      '--mode <mode>',
      'sync (call by call, default) or batch (the provider batch API: about half price, results within 24 h; openai and anthropic)',
    )
    .option(
      '--poll-ms <ms>',
      'batch mode: first wait between status checks (default 5000; doubles up to a minute)',
    )
    .option(
      '--lexical-metric <m>',
      `lexical: ${LEXICAL_METRICS.join(', ')} (default rougeL, or the --model name when it is one)`,
    )
    .option(
      '--lexical-threshold <x>',
      'lexical: score at or above which a unit counts as supported (default 0.5)',
    )
    .option(
      '--lexical-tokens <mode>',
      "lexical: unicode (words in any script, default) or ascii ([a-z0-9]+ lower-case, as the papers' scripts)",
    )
    .option('--no-prompt-cache', NO_PROMPT_CACHE)
    .action(async (f: RunFlags) => {
      if (!(JUDGE_METHODS as readonly string[]).includes(f.method))
        throw new CliError(
          `--method must be one of ${JUDGE_METHODS.join(', ')}, got "${f.method}"`,
          EXIT.usage,
        )
      if (f.parseMode && f.parseMode !== 'word-match' && f.parseMode !== 'strict')
        throw new CliError('--parse-mode must be word-match or strict', EXIT.usage)
      const naScope = naScopeFlag(f.naScope)
      await withWorkspace(f.workspace, async (ws, s) => {
        const r = requestFromFlags(ws, f, f.method)
        r.settings = {
          ...(f.parseMode ? { parseMode: f.parseMode } : {}),
          ...(naScope ? { naScope } : {}),
          ...lexicalSettings(f),
        }
        if (f.promptCache === false) r.settings.promptCache = false
        const mode = modeOf(f.mode)
        if (mode) r.mode = mode
        // A wait, not a count: 0 polls at once (the batch tests do), as the app's call allows.
        const pollMs = parsePositiveInt('--poll-ms', f.pollMs)
        const repeat = parseAtLeastOne('--repeat', f.repeat) ?? 1
        let ids: number[]
        try {
          ids = createRuns(ws.db, r, repeat)
        } catch (error) {
          throw new CliError(error instanceof Error ? error.message : String(error))
        }
        const summaries: RunSummary[] = []
        for (const id of ids) summaries.push(await driveRun(s, id, Boolean(f.json), pollMs))
        report(Boolean(f.json), summaries, ws)
      })
    })

  judge
    .command('resume [run]')
    .description(
      `Resume a paused, failed or interrupted run without repeating finished calls. A run another process is driving is refused; one whose driver is gone, or silent for ${LEASE_STALE_MS / 1000} s, is taken over.`,
    )
    .option('--workspace <db>', 'workspace file')
    .option('--run <id>', 'the run (or give it as the first argument)')
    .option('--mode <mode>', 'send the rest sync (call by call) or batch, whatever the run started as')
    .option('--poll-ms <ms>', 'batch mode: first wait between status checks')
    .option('--json', 'print the result as JSON')
    .action(
      async (run: string | undefined, f: CommonFlags & { run?: string; mode?: string; pollMs?: string }) => {
        const runId = runIdArg('factlab judge resume', run, f.run)
        const mode = modeOf(f.mode)
        const pollMs = parsePositiveInt('--poll-ms', f.pollMs)
        await withWorkspace(f.workspace, async (ws, s) => {
          // A finished run just reports; any other is resumed by the app's own call, then followed
          // here (progress bar, Ctrl-C pauses) on the same engine.
          if (knownRun(ws, runId).status !== 'done') {
            const { note } = await s.launch('judges.resume', {
              runId,
              ...(mode ? { mode } : {}),
              ...(pollMs !== undefined ? { batchPollMs: pollMs } : {}),
            })
            // Before the progress bar: the person learns at once that the batch is no longer paid for.
            if (note) process.stderr.write(`${note}\n`)
          }
          report(Boolean(f.json), [await driveRun(s, runId, Boolean(f.json))], ws)
        })
      },
    )

  judge
    .command('status [run]')
    .description('A run and its provider batches: ids, states, request counts and the cost it is heading for')
    .option('--workspace <db>', 'workspace file')
    .option('--run <id>', 'the run (or give it as the first argument)')
    .option('--json', 'print the result as JSON')
    .action(async (run: string | undefined, f: CommonFlags & { run?: string }) => {
      const runId = runIdArg('factlab judge status', run, f.run)
      await withWorkspace(f.workspace, async (ws, s) => {
        knownRun(ws, runId)
        const st = await s.call('judges.batches', { runId })
        printResult(Boolean(f.json), st, () =>
          [
            `run ${st.runId}: ${st.status} (${st.mode === 'batch' ? `batch mode, ${countOf(st.waiting, 'request')} waiting` : 'call by call'})`,
            // The Judges view's words and counts (shared/runCalls.ts), and the tokens export-verdicts sums to.
            `${callWords(st)}, ${st.promptTokens}+${st.completionTokens} tokens`,
            ...st.batches.map(
              (b) =>
                `batch ${b.id} (${batchIdWords(b)}): ${batchStateWords(b)} — ${batchCountWords(b)}${b.error && !batchRefused(b) ? ` — ${b.error}` : ''}`,
            ),
            statusCostLine(st),
            ...splitLine(st.costSplit, st.cost),
            ...(st.templates ? [`templates: ${st.templates}`] : []),
            ...(st.takeover ? [`note: ${st.takeover}`] : []),
          ].join('\n'),
        )
      })
    })

  judge
    .command('improve [run]')
    .description('DCR improvement (RAI): rewrite inconsistent candidates for K rounds and re-judge them')
    .option('--workspace <db>', 'workspace file')
    .option('--run <id>', 'the DCR run to improve on (or give it as the first argument)')
    .option('--rounds <k>', 'rewrite rounds (default 1)')
    .option('--json', 'print the result as JSON')
    .action(async (run: string | undefined, f: CommonFlags & { run?: string; rounds?: string }) => {
      const sourceRunId = runIdArg('factlab judge improve', run, f.run)
      const rounds = parseAtLeastOne('--rounds', f.rounds) ?? 1
      await withWorkspace(f.workspace, async (ws, s) => {
        const source = knownRun(ws, sourceRunId)
        if (source.method !== 'dcr')
          throw new CliError(`Run ${sourceRunId} is a ${source.method} run, not dcr`)
        // Created and started by the app's own call, then followed here on the same engine.
        const { runId: id } = await s.launch('judges.improve', { runId: sourceRunId, rounds })
        const summary = await driveRun(s, id, Boolean(f.json))
        const roundsReport = improvementReport(ws.db, id, sourceRunId, rounds)
        printResult(Boolean(f.json), { ...summary, rounds: roundsReport }, () =>
          [human(summary), ...roundsReport.map(roundWords)].join('\n'),
        )
        exitFor([summary], ws)
      })
    })

  withProviderOptions(judge.command('preview').description('Print the exact first request a run would send'))
    .requiredOption('--method <name>', JUDGE_METHODS.join(', '))
    .option('--no-prompt-cache', NO_PROMPT_CACHE)
    .option('--na-scope <scope>', NA_SCOPE_HELP)
    .action(async (f: RunFlags) => {
      const naScope = naScopeFlag(f.naScope)
      await withWorkspace(f.workspace, async (ws) => {
        const r = requestFromFlags(ws, f, f.method)
        // The preview shows the wire body, which the prompt-cache breakpoint is part of.
        r.settings = {
          ...(f.promptCache === false ? { promptCache: false } : {}),
          ...(naScope ? { naScope } : {}),
        }
        const p = await previewRun(ws.db, r, BUILTIN_REGISTRY)
        printResult(Boolean(f.json), p, () =>
          [
            `${countOf(p.candidates, 'candidate')}, ${countOf(p.targets, 'target')}`,
            ...p.calls.map(
              (c) =>
                `--- ${c.key}\npath: ${c.path.kind} (${c.path.reason})\n${c.reading ? `reading: ${c.reading}\n` : ''}${c.warning ? `warning: ${c.warning}\n` : ''}${JSON.stringify(c.wire, null, 2)}`,
            ),
          ].join('\n'),
        )
      })
    })
}

/** One RAI round in words, saying what became of the sentences the judge gave no verdict on. */
function roundWords(r: RoundReport): string {
  if (r.rewritten === 0) return `round ${r.round}: nothing left to correct, no variant added`
  const rate = r.rate === null ? 'n/a' : `${(r.rate * 100).toFixed(1)}%`
  const changed = r.unjudged - r.unjudgedKept
  const unjudged =
    r.unjudged === 0
      ? ''
      : `; ${countOf(r.unjudged, 'sentence')} without a verdict, not counted as inconsistent: ${r.unjudgedKept} kept as ${r.unjudged === 1 ? 'it was' : 'they were'}${changed > 0 ? `, ${changed} changed by the rewrite` : ''}`
  const notCorrected = [
    r.failed > 0 ? `${r.failed} not rewritten (the rewrite failed)` : '',
    r.unscored > 0 ? `${r.unscored} rewritten with no verdict` : '',
  ].filter(Boolean)
  const counted = notCorrected.length > 0 ? `, counted as not corrected: ${notCorrected.join(', ')}` : ''
  const cumulative = r.cumulativeRate === null ? 'n/a' : `${(r.cumulativeRate * 100).toFixed(1)}%`
  return `round ${r.round}: ${r.rewritten} rewritten, ${r.corrected}/${r.inconsistent} corrected (${rate})${counted}; cumulative ${r.correctedSoFar}/${r.originals} of the originals found inconsistent (${cumulative})${unjudged}`
}
