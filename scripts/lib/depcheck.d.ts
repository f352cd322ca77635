export interface Violation {
  rule: string
  from: string
  to: string
  cycle?: string[]
}
export function keepTypeImports(source: string): string
export function checkDependencies(opts: {
  root: string
  folders: string[]
  rules?: { forbidden: unknown[]; options?: Record<string, unknown> }
}): Promise<{ checked: number; violations: Violation[] }>
export function describe(v: Violation): string
