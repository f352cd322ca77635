import { GENERATORS } from '../generate'
import { IMPROVER, METHODS } from '../judges/registry'
import type { MethodRegistry } from './registry'

/** The product's methods, generators and RAI improver, as the engine sees them. */
export const BUILTIN_REGISTRY: MethodRegistry = {
  judges: METHODS,
  generators: GENERATORS,
  improver: IMPROVER,
}
