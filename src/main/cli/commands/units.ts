import type { Command } from 'commander'
import { GENERATE_METHODS } from '../../../shared/domain'
import { countOf } from '../../../shared/plural'
import { callWords } from '../../../shared/runCalls'
import { createRuns } from '../../runs/create'
import { CliError, EXIT, printResult } from '../util'
import { driveRun } from './judge'
import { type ProviderFlags, requestFromFlags, withProviderOptions } from './judgeFlags'
import { withWorkspace } from './session'

export function registerUnitsCommands(program: Command): void {
  const units = program.command('units').description('Make units: facts, questions, triplets, sentences')
  const generate = units
    .command('generate')
    .description('Generate units with an LLM (sentences use the deterministic splitter and need no provider)')
    .requiredOption('--method <name>', GENERATE_METHODS.join(', '))
  withProviderOptions(generate)
  // Sentences need no model: accept the command without provider flags for them.
  for (const o of generate.options) if (o.long === '--provider' || o.long === '--model') o.mandatory = false
  generate.action(async (f: Partial<ProviderFlags> & { dataset: string; method: string }) => {
    if (!(GENERATE_METHODS as readonly string[]).includes(f.method))
      throw new CliError(
        `--method must be one of ${GENERATE_METHODS.join(', ')}, got "${f.method}"`,
        EXIT.usage,
      )
    const provider = f.provider ?? (f.method === 'sentences' ? 'lexical' : undefined)
    const model = f.model ?? (f.method === 'sentences' ? 'splitter' : undefined)
    if (!provider || !model)
      throw new CliError(`--provider and --model are required for ${f.method}`, EXIT.usage)
    await withWorkspace(f.workspace, async (ws, s) => {
      const r = requestFromFlags(ws, { ...f, provider, model }, f.method)
      const [id] = createRuns(ws.db, { ...r, kind: 'extract' })
      const summary = await driveRun(s, id!, Boolean(f.json))
      const made = ws.db.prepare('SELECT COUNT(*) AS n FROM units WHERE origin = ?').get(`llm:${id}`) as {
        n: number
      }
      const note = (ws.db.prepare('SELECT error FROM runs WHERE id = ?').get(id) as { error: string | null })
        .error
      printResult(Boolean(f.json), { ...summary, units: made.n, note }, () =>
        [
          `run ${id}: ${summary.status} — ${countOf(made.n, 'unit')}, ${callWords({ status: summary.status, calls: summary.calls, cached: summary.cached, callErrors: summary.callErrors, totalCalls: null })}`,
          ...(note ? [`note: ${note}`] : []),
        ].join('\n'),
      )
      if (summary.status !== 'done')
        throw new CliError(`run ${id} ended ${summary.status}; resume it with: judge resume ${id}`)
    })
  })
}
