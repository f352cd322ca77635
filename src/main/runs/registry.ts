import type { GeneratorImpl, ImproverImpl, JudgeMethodImpl } from '../judges/types'

/** The methods a run engine can run; tests pass small ones, the app passes the real registry. */
export interface MethodRegistry {
  judges: Readonly<Record<string, JudgeMethodImpl>>
  generators: Readonly<Record<string, GeneratorImpl>>
  improver: ImproverImpl | null
}
