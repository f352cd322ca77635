export const BUILT_CLI: string
export const SOURCE_CLI: string
export interface CliEntry {
  kind: 'built' | 'source'
  file: string
  /** The build in out/, when there is one. */
  built: string | null
  /** A build exists but some source changed after it. */
  stale: boolean
}
export function cliEntry(root: string): CliEntry
