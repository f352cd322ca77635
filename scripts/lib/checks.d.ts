export interface Check {
  name: string
  /** The command as a person would type it, for the report. */
  shows: string
  cmd: string[]
}
export function runChecks(
  checks: readonly Check[],
  opts: { cwd: string; atOnce: number; print(text: string): void },
): Promise<boolean>
