export function electronBinary(electronDir: string, env?: Record<string, string | undefined>): string | null
export const MISSING_ELECTRON: string
