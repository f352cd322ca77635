export const OUTPUTS: string[]
export function needsBuild(root: string): boolean
export function sourcesNewerThan(root: string, mtimeMs: number, sources?: readonly string[]): boolean
export function buildIfNeeded(root: string): boolean
