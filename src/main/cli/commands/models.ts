import type { Command } from 'commander'
import { capabilityList } from '../../providers/capabilityNames'
import { keyStore } from '../../providers/keys'
import { detectModel } from '../../providers/probe'
import { CliError, printResult } from '../util'
import { providerOf } from './judge'
import { withWorkspace } from './session'

interface ProbeFlags {
  workspace?: string
  provider: string
  model: string
  baseUrl?: string
  json?: boolean
}

export function registerModelsCommands(program: Command): void {
  const models = program.command('models').description('Models: what each honours, and their prices')
  models
    .command('probe')
    .description(
      'Send one tiny request per capability (tools, forced tool choice, strict schema, JSON mode, json_schema) and record what the server honours',
    )
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--provider <name>', 'openai-compatible (or openai)')
    .requiredOption('--model <name>', 'model name as the server knows it')
    .option('--base-url <url>', 'server URL, e.g. http://localhost:11434/v1')
    .option('--json', 'print the result as JSON')
    .action(async (f: ProbeFlags) => {
      const provider = providerOf(f.provider)
      await withWorkspace(f.workspace, async (ws) => {
        let out: Awaited<ReturnType<typeof detectModel>>
        try {
          out = await detectModel(ws.db, {
            provider,
            model: f.model,
            baseUrl: f.baseUrl ?? '',
            apiKey: provider === 'lexical' ? null : keyStore().get(provider),
          })
        } catch (error) {
          throw new CliError(error instanceof Error ? error.message : String(error))
        }
        printResult(Boolean(f.json), out, () =>
          [
            ...out.results.map((r) => `${r.honoured ? 'yes' : 'no '} ${r.capability}: ${r.detail}`),
            `recorded for ${provider}/${f.model}: ${capabilityList(out.model.capabilities).join(', ') || 'none'}`,
          ].join('\n'),
        )
      })
    })
}
