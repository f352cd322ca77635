import type { Command } from 'commander'
import { CALL_NAMES, type CallName, contract } from '../../../shared/contract'
import { CliError, EXIT, printResult } from '../util'
import { CALL_DESCRIPTIONS } from './callDescriptions'
import { callDocs, whoFields, withSession } from './session'

/** The calls that may start a new workspace, as `import` and `package --open` may (newWorkspace.ts). */
const BRING_A_DATASET_IN: ReadonlySet<CallName> = new Set(['datasets.import', 'projects.openPackage'])

function isCallName(name: string): name is CallName {
  return (CALL_NAMES as string[]).includes(name)
}

function acceptsNull(name: CallName, fields: Record<string, unknown>, who: string): boolean {
  const r = contract[name].input.safeParse({ ...fields, [who]: null })
  return r.success || !r.error.issues.some((i) => i.path[0] === who)
}

async function readStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return text
}

async function readInput(raw: string | undefined): Promise<unknown> {
  if (raw === undefined) return {}
  const text = raw === '-' ? await readStdin() : raw
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    throw new CliError(
      `the input is not valid JSON (${why}); give one JSON object, e.g. '{"datasetId":1}'`,
      EXIT.usage,
    )
  }
}

/** `call` and `calls`: any contract call from a script, with the app's validation and refusals. */
export function registerCallCommands(program: Command): void {
  program
    .command('call <name> [json]')
    .description(
      'Run any call of the app’s API (see `factlab calls`) and print its result as JSON; input as a JSON argument, or - for stdin',
    )
    .option('--workspace <db>', 'workspace file')
    .option('--annotator <name>', 'who is labelling (added if new); fills annotatorId / adjudicatorId')
    .action(async (name: string, json: string | undefined, f: { workspace?: string; annotator?: string }) => {
      if (!isCallName(name)) {
        const area = name.split('.')[0] ?? ''
        const near = CALL_NAMES.filter((c) => c.startsWith(`${area}.`))
        throw new CliError(
          `No call named "${name}"${near.length ? ` (${area} has: ${near.join(', ')})` : ''}; list them with: factlab calls`,
          EXIT.usage,
        )
      }
      const input = await readInput(json)
      const value = await withSession(
        f.workspace,
        f.annotator,
        (s) => {
          if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
            const fields = input as Record<string, unknown>
            for (const who of whoFields(name)) {
              if (who in fields) continue
              if (f.annotator) fields[who] = s.annotatorId(name)
              // Nobody in particular (e.g. the items list without "labelled by me") is a valid answer.
              else if (acceptsNull(name, fields, who)) fields[who] = null
              else
                throw new CliError(
                  `${name} needs ${who}: give --annotator NAME or "${who}" in the JSON`,
                  EXIT.usage,
                )
            }
          }
          return s.callByName(name, input)
        },
        BRING_A_DATASET_IN.has(name) ? 'mayCreate' : 'existing',
      )
      process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
    })

  program
    .command('calls')
    .description('List every call `factlab call` accepts, with its input JSON Schema')
    .option('--json', 'print JSON')
    .action((f: { json?: boolean }) => {
      const docs = callDocs(CALL_DESCRIPTIONS)
      printResult(Boolean(f.json), docs, () =>
        [
          ...docs.map((d) => `${d.name.padEnd(26)} ${d.description}${d.input ? '' : `  (${d.note})`}`),
          '',
          "Run one with: factlab call <name> '<json input>' --workspace <db> [--annotator NAME]",
          'Input schemas: factlab calls --json',
        ].join('\n'),
      )
    })
}
