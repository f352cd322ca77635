import type { Command } from 'commander'
import { CALL_NAMES, type CallName, contract } from '../../../shared/contract'
import { CliError, EXIT, printResult } from '../util'
import { callDocs, whoFields, withSession } from './session'

/**
 * One line per call for `factlab calls`; a call added later without one shows its name. Keyed by
 * CallName so that a renamed or removed call is a type error here, not a stale line.
 */
const DESCRIPTIONS: Partial<Record<CallName, string>> = {
  'workspace.info': 'The workspace file, its schema version and the app version',
  'workspace.annotators': 'Everyone who has labelled in this workspace',
  'workspace.ensureAnnotator': 'The annotator with this name, added if new',
  'datasets.list': 'Every dataset with its sizes and labelling progress per annotator',
  'datasets.names': 'Dataset ids and names only',
  'datasets.brief': "A dataset's label schema and variants",
  'datasets.get': 'One dataset with its sizes and progress',
  'datasets.items': "A page of a dataset's items, filtered as in the Items view (status, variant, search)",
  'datasets.importPreview': 'The first rows of a file as an import would read them',
  'datasets.import': 'Imports a file as a new dataset (all or nothing unless skipBadRows)',
  'annotate.open': 'One item as the Annotate view shows it: its targets, my labels, others and judges',
  'annotate.save': 'Gives, changes or clears (verdict null) my label on a target, with evidence and a note',
  'annotate.next': 'My next unlabelled target after a given one',
  'units.list': 'One item with its current and deleted units',
  'units.edit': 'Changes a unit; a labelled unit gets a new version and keeps its labels on the old one',
  'units.add': 'Adds a unit to an item (a fact) or to a candidate (triplet, sentence, whole)',
  'units.delete': 'Deletes a unit (it can be restored; its labels are kept)',
  'units.restore': 'Brings back a deleted unit',
  'units.split': 'Splits a unit into two or more',
  'units.merge': 'Merges two or more units into one',
  'units.reorder': 'Puts the units of an item or candidate in a new order',
  'units.versions': 'Every version of a unit with the labels each one carries',
  'units.splitSentences': 'Sentence units from the deterministic splitter, for a candidate or a dataset',
  'agreement.summary': 'Inter-annotator agreement of a dataset',
  'agreement.queue': 'Targets where annotators disagree, open or already decided',
  'agreement.adjudicate': "Sets a target's gold verdict as the adjudicator's decision",
  'judges.keys': 'Which providers have an API key, and where keys come from',
  'judges.setKey': 'Desktop only: stores an API key in the keychain',
  'judges.models': 'Known models with their prices and capabilities',
  'judges.saveModel': 'Adds or changes a model entry',
  'judges.model': 'One model entry (defaults for an unknown one)',
  'judges.configs': 'Saved judge configurations',
  'judges.saveConfig': 'Creates a judge configuration, or changes one by id',
  'judges.templates': 'The newest version of every prompt template',
  'judges.templateHistory': 'Every version of one prompt template',
  'judges.saveTemplate': 'Saves a prompt template as a new version',
  'judges.preview': 'The exact requests a judge config would send',
  'judges.start': 'Starts runs of a judge config on a dataset and waits for them',
  'judges.improve': 'DCR improvement rounds on a DCR run, waited for',
  'judges.runs': 'Runs with status, progress, tokens and cost',
  'judges.pause': 'Pauses a run that is queued or driven by no live process',
  'judges.cancel': 'Cancels a run that is queued or driven by no live process',
  'judges.resume': 'Resumes a paused or interrupted run and waits for it',
  'judges.rewrites': 'Candidates rewritten by DCR improvement, beside their originals',
  'judges.candidateVerdicts': 'Every judge verdict on one candidate',
  'metrics.compare': 'All judge, human and agreement figures of a dataset',
  'metrics.disagreements': 'Targets where a judge and gold disagree',
  'metrics.labelNext': 'Targets worth labelling next, where judges split most',
  'metrics.report': 'The metrics report as Markdown, CSV or HTML text',
  'metrics.itemLevel': 'Item scores per response and their correlations with human item scores',
  'gold.rule': "How a dataset's gold is made, and every change of that rule",
  'gold.setRule':
    'Sets how gold is made (majority with a tie rule, or a named annotator); gold is recomputed',
  'exports.defaults': 'Where exports would be written by default',
  'exports.dataset': 'Exports a dataset with its labels and gold',
  'exports.verdicts': "Exports a run's verdicts as JSONL",
  'exports.bundle': "Exports one annotator's labels as a bundle for another workspace",
  'exports.mergeBundle': "Merges another workspace's bundle of labels (all or nothing)",
}

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
      const docs = callDocs(DESCRIPTIONS)
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
