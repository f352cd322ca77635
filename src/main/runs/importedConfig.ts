import { DEFAULT_CAPABILITIES } from '../providers/types'
import { RunConfig } from './config'

/**
 * Runs imported from elsewhere (import-verdicts, the demo's illustrative runs) never execute and
 * store only where they came from, not a judge config. Reading them as runs needs a config all
 * the same; this stands in for it, with the run's own model and method and no price.
 */
export function importedRunConfig(model: string, method: string): RunConfig {
  return RunConfig.parse({
    provider: 'openai-compatible',
    model: model || 'unknown',
    method: method || 'imported',
    capabilities: DEFAULT_CAPABILITIES['openai-compatible'],
    prices: { input: 0, output: 0 },
  })
}
