import { z } from 'zod'
import {
  CALL_NAMES,
  type CallInput,
  type CallName,
  type CallOutput,
  contract,
  type RpcError,
} from '../../../shared/contract'
import { AppContext } from '../../app/context'
import type { Workspace } from '../../app/workspace'
import { dispatch, type Handlers } from '../../rpc/dispatch'
import { buildHandlers } from '../../rpc/handlers'
import type { Db } from '../../store/connection'
import { ensureAnnotator, listAnnotators, notAPerson } from '../../store/repos/annotators'
import { storageRefusal } from '../../store/storageTrouble'
import { storeTrouble } from '../../store/trouble'
import { pickDataset } from '../datasetKey'
import { claimWorkspace, type WorkspaceUse } from '../newWorkspace'
import { CliError, EXIT } from '../util'

/*
 * The CLI side of the app's contract: every scripted action goes through the same `dispatch` the
 * window and browser mode use, so validation, services and refusals are the app's own.
 */

/**
 * What the CLI does with each refusal code: usage mistakes exit 2, a workspace that cannot take
 * the call now (busy, disk full) 75 so a script tries again later, everything else 1.
 */
export function exitCodeFor(code: RpcError['code']): number {
  if (code === 'unavailable') return EXIT.tempFail
  return code === 'unknown_call' ? EXIT.usage : EXIT.badInput
}

/** Calls that only a UI can make sense of, with where a script should go instead. */
function uiOnlyRefusal(name: string, input: unknown): string | null {
  if (name === 'judges.setKey')
    return 'judges.setKey stores a key in the desktop keychain; from a script, set OPENAI_API_KEY, ANTHROPIC_API_KEY or FACTLAB_OPENAI_COMPATIBLE_API_KEY in the environment instead'
  const source = z.object({ source: z.object({ uploadId: z.string() }) }).safeParse(input)
  if (source.success)
    return `${name}: an uploadId names a file streamed to a running browser-mode server; give {"source":{"path":"/full/path"}} instead, or use \`factlab import <file>\` / \`factlab merge <bundle>\``
  return null
}

/** Calls that start runs in the background: the CLI stays until those runs stop. */
const RUN_LAUNCHERS: ReadonlySet<string> = new Set(['judges.start', 'judges.improve', 'judges.resume'])

/** How many names a refusal lists before "and N more". */
const NAMES_SHOWN = 20

export class Session {
  readonly handlers: Handlers
  private annotator: number | undefined
  /**
   * Whether `--annotator` may name someone new, who is then added. `label` and `adjudicate` set
   * it from `--new-annotator`, so a misspelt name is refused instead of becoming a person;
   * `call` keeps adding, as the app's start screen does.
   */
  mayAddAnnotator = true

  constructor(
    readonly ctx: AppContext,
    private readonly annotatorName: string | undefined,
  ) {
    this.handlers = buildHandlers(ctx)
  }

  get db(): Db {
    return this.ctx.workspace.db
  }

  /** Who is labelling (`--annotator`), resolved by `person` once. */
  annotatorId(purpose: string): number {
    if (this.annotator !== undefined) return this.annotator
    if (!this.annotatorName) throw new CliError(`${purpose} needs --annotator NAME`, EXIT.usage)
    this.annotator = this.person(this.annotatorName, this.mayAddAnnotator, '--annotator')
    return this.annotator
  }

  /** The name `--annotator` gives, if any (unchecked). */
  get annotatorFlag(): string | undefined {
    return this.annotatorName
  }

  /**
   * A person's id by name. A dataset's reference labels (a source) are nobody to act as. A name
   * the workspace does not know is added when `mayAdd`, else refused with the names it knows, so
   * a typo does not silently become a new person whose labels count towards k.
   */
  person(name: string, mayAdd: boolean, flag = '--annotator', offerToAdd = true): number {
    // The same repository call as the workspace.ensureAnnotator handler.
    return this.knownPerson(name, mayAdd, flag, offerToAdd) ?? ensureAnnotator(this.db, name.trim()).id
  }

  /**
   * `person` without adding anyone: the id of a known person, null for a new name that may be
   * added, a refusal otherwise. A file's names are checked with it before anything is written,
   * and added inside the transaction that writes the file's lines, so a refused file adds nobody.
   */
  knownPerson(name: string, mayAdd: boolean, flag = '--annotator', offerToAdd = true): number | null {
    const parsed = contract['workspace.ensureAnnotator'].input.safeParse({ name })
    if (!parsed.success) throw new CliError(`${flag}: ${z.prettifyError(parsed.error)}`, EXIT.usage)
    const wanted = parsed.data.name.trim()
    const known = listAnnotators(this.db)
    const found = known.find((a) => a.name === wanted)
    if (found?.kind === 'source') throw new CliError(notAPerson(found.name))
    if (found) return found.id
    if (mayAdd) return null
    const people = known.filter((a) => a.kind !== 'source').map((a) => a.name)
    const listed =
      people.length === 0
        ? 'nobody yet'
        : people.slice(0, NAMES_SHOWN).join(', ') +
          (people.length > NAMES_SHOWN ? ` and ${people.length - NAMES_SHOWN} more` : '')
    throw new CliError(
      `No annotator named "${wanted}" in this workspace (people here: ${listed}). Check the spelling` +
        (offerToAdd ? `, or add --new-annotator to add "${wanted}" as a new person` : ''),
    )
  }

  /** Runs one call through `dispatch`; a refusal becomes a CliError with the CLI's exit code. */
  async call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
    return (await this.callByName(name, input)) as CallOutput<K>
  }

  async callByName(name: string, input: unknown): Promise<unknown> {
    const value = await this.dispatchOne(name, input)
    if (RUN_LAUNCHERS.has(name)) await this.waitForRuns(runIdsOf(name, input, value))
    return value
  }

  /**
   * Like `call`, but returns as soon as a run launcher has started its runs, for a command that
   * then follows them itself (progress bar, Ctrl-C pauses) on the same engine.
   */
  async launch<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
    return (await this.dispatchOne(name, input)) as CallOutput<K>
  }

  private async dispatchOne(name: string, input: unknown): Promise<unknown> {
    const refusal = uiOnlyRefusal(name, input)
    if (refusal) throw new CliError(refusal, EXIT.badInput)
    const result = await dispatch(this.handlers, name, input, this.ctx.workspace.file)
    // The code (bad_input, conflict, …) is for programs; a person reads the message, and the exit
    // code still tells a script usage (2) from a refusal (1).
    if (!result.ok) throw new CliError(result.error.message, exitCodeFor(result.error.code))
    return result.value
  }

  /** The id of the dataset `--dataset` names, through the app's own `datasets.names` call. */
  async datasetId(key: string): Promise<number> {
    return pickDataset(await this.call('datasets.names', {}), key)
  }

  /** The app keeps running runs in the background; a script's process must not exit under them. */
  private async waitForRuns(ids: number[]): Promise<void> {
    for (;;) {
      const runs = await this.handlers['judges.runs']({})
      if (!runs.some((r) => ids.includes(r.id) && r.active)) return
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

function runIdsOf(name: string, input: unknown, value: unknown): number[] {
  if (name === 'judges.resume') return [z.object({ runId: z.number() }).parse(input).runId]
  const v = z.object({ runIds: z.array(z.number()).optional(), runId: z.number().optional() }).parse(value)
  return v.runIds ?? (v.runId !== undefined ? [v.runId] : [])
}

/**
 * Opens the workspace as the app does (same context, same handlers) and always closes it. A path
 * that does not exist is refused unless `use` is 'mayCreate'; a workspace this command created is
 * removed again when the command fails.
 */
export async function withSession<T>(
  file: string | undefined,
  annotator: string | undefined,
  fn: (s: Session) => Promise<T> | T,
  use: WorkspaceUse = 'existing',
): Promise<T> {
  if (!file) throw new CliError('--workspace <file> is required', EXIT.usage)
  const undoCreation = claimWorkspace(file, use)
  let ctx: AppContext
  try {
    // The composition root builds this workspace's services, the run engine included, as the app's.
    // A workspace in a folder SQLite may not write in still opens for reading (as a copy).
    ctx = new AppContext(file, {
      driver: 'cli',
      readOnlyCopy: true,
      onNotice: (_id, message) => process.stderr.write(`note: ${message}\n`),
    })
  } catch (error) {
    undoCreation()
    throw error
  }
  let done = false
  try {
    const value = await fn(new Session(ctx, annotator))
    done = true
    return value
  } catch (error) {
    const storage = storageRefusal(error, file)
    throw storage ? new CliError(storage, storeTrouble(error) ? EXIT.tempFail : EXIT.badInput) : error
  } finally {
    ctx.close()
    if (!done) undoCreation()
  }
}

/** A command that works on the workspace itself: the same services as `withSession`. */
export function withWorkspace<T>(
  file: string | undefined,
  fn: (ws: Workspace, s: Session) => Promise<T> | T,
  use: WorkspaceUse = 'existing',
): Promise<T> {
  return withSession(file, undefined, (s) => fn(s.ctx.workspace, s), use)
}

/** The top-level field names an input object can have (unions: any branch's). */
function inputKeys(schema: unknown): Set<string> {
  const keys = new Set<string>()
  const visit = (node: unknown) => {
    const n = z
      .object({
        properties: z.record(z.string(), z.unknown()).optional(),
        anyOf: z.array(z.unknown()).optional(),
      })
      .safeParse(node)
    if (!n.success) return
    for (const k of Object.keys(n.data.properties ?? {})) keys.add(k)
    for (const branch of n.data.anyOf ?? []) visit(branch)
  }
  visit(schema)
  return keys
}

export interface CallDoc {
  name: CallName
  description: string
  /** JSON Schema of the input, or null when zod cannot represent it (then `note` says why). */
  input: Record<string, unknown> | null
  note?: string
}

/** Every call with its input JSON Schema, for `factlab calls`. */
export function callDocs(descriptions: Partial<Record<CallName, string>>): CallDoc[] {
  return CALL_NAMES.map((name) => {
    const description = descriptions[name] ?? name.replace('.', ': ')
    try {
      const input = z.toJSONSchema(contract[name].input, { io: 'input', unrepresentable: 'throw' })
      return { name, description, input }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      return { name, description, input: null, note: `input schema cannot be shown as JSON Schema: ${why}` }
    }
  })
}

/** Which of the "who is doing this" fields a call takes: filled from --annotator when absent. */
export function whoFields(name: CallName): string[] {
  let schema: unknown
  try {
    schema = z.toJSONSchema(contract[name].input, { io: 'input', unrepresentable: 'any' })
  } catch {
    return []
  }
  const keys = inputKeys(schema)
  return ['annotatorId', 'adjudicatorId'].filter((k) => keys.has(k))
}
