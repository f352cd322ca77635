import { SingleBar } from 'cli-progress'

/**
 * Exit codes every command shares: 0 done, 1 bad input, 2 usage, 75 try again later (EX_TEMPFAIL
 * of sysexits.h: the workspace was busy, its disk full or failing; nothing was changed), so a
 * script can tell waiting and retrying from fixing its input.
 */
export const EXIT = { ok: 0, badInput: 1, usage: 2, tempFail: 75 } as const

/** A refusal the CLI reports as one line on stderr with exit code 1 (or 2 for usage, 75 for try again). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.badInput,
  ) {
    super(message)
  }
}

export interface Progress {
  update(done: number, total?: number): void
  stop(): void
}

/** A progress bar on stderr when it is a terminal and output is not JSON; silent otherwise. */
export function cliProgress(label: string, total: number | undefined, json = false): Progress {
  if (json || !process.stderr.isTTY) return { update() {}, stop() {} }
  const bar = new SingleBar(
    { format: `${label} [{bar}] {value}/{total} {eta_formatted}`, stream: process.stderr, hideCursor: true },
    undefined,
  )
  bar.start(total ?? 0, 0)
  return {
    update(done, newTotal) {
      if (newTotal !== undefined) bar.setTotal(newTotal)
      bar.update(done)
    },
    stop() {
      bar.stop()
    },
  }
}

/** Prints a result: JSON when asked, otherwise the human-readable lines. */
export function printResult(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`)
}

/**
 * A whole number of 0 or more (a seed, say), or undefined when the flag was not given. Despite the
 * name it takes 0; counts, limits and ids, where 0 is a mistake, go through `parseAtLeastOne`.
 */
export function parsePositiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0)
    throw new CliError(`${name} must be a whole number, got "${raw}"`, EXIT.usage)
  return n
}

/**
 * A count, limit, duration or id: a whole number of 1 or more, or undefined when the flag was not
 * given. 0 is refused rather than read as "no limit" or "the default": `--limit 0` meaning the
 * whole dataset would send every request to a paid provider.
 */
export function parseAtLeastOne(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw.trim() === '' ? Number.NaN : raw)
  if (!Number.isSafeInteger(n) || n < 1)
    throw new CliError(`${name} must be a whole number of at least 1, got "${raw}"`, EXIT.usage)
  return n
}

/**
 * The run a command names, given either way (`judge status 3` or `judge status --run 3`), as
 * people type both. Refused when missing, or given twice as two different runs.
 */
export function runIdArg(usage: string, positional: string | undefined, flag: string | undefined): number {
  const a = parseAtLeastOne('run', positional)
  const b = parseAtLeastOne('--run', flag)
  if (a !== undefined && b !== undefined && a !== b)
    throw new CliError(`Two runs given (${a} and --run ${b}); name one`, EXIT.usage)
  const id = a ?? b
  if (id === undefined) throw new CliError(`Which run? Name it: ${usage} 3, or ${usage} --run 3`, EXIT.usage)
  return id
}
