import type { Workspace } from '../../src/main/app/workspace'
import type { BatchLimits } from '../../src/main/providers/batch'
import { EnvKeyStore } from '../../src/main/providers/keys'
import { saveModel } from '../../src/main/providers/models'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { type EngineOptions, RunEngine } from '../../src/main/runs/engine'
import type { Clock } from '../../src/main/runs/limits'
import type { LabelSchema } from '../../src/shared/labelSchemas'
import { TEST_KEY } from '../runs/helpers'

/** Sleeps end at once: a batch moves one step per status check, so nothing needs real time. */
export const instantClock: Clock = {
  now: () => performance.now(),
  sleep: async (_ms, signal) => {
    if (signal?.aborted) throw signal.reason
    await new Promise((r) => setImmediate(r))
  },
}

export function batchEngine(
  ws: Workspace,
  limits?: BatchLimits,
  extra: Partial<EngineOptions> = {},
): RunEngine {
  return new RunEngine({
    db: ws.db,
    registry: BUILTIN_REGISTRY,
    keys: new EnvKeyStore({ OPENAI_API_KEY: TEST_KEY, ANTHROPIC_API_KEY: TEST_KEY }),
    clock: instantClock,
    batch: { poll: { firstMs: 0, maxMs: 0 }, ...(limits ? { limits } : {}) },
    ...extra,
  })
}

/** Prices per million tokens for the test models (so batch and cache savings show in money). */
export function priceModels(ws: Workspace, baseUrls: { openai: string; anthropic: string }): void {
  saveModel(ws.db, {
    provider: 'openai',
    model: 'gpt-fake',
    baseUrl: baseUrls.openai,
    capabilities: DEFAULT_CAPABILITIES.openai,
    priceInputPerMTok: 2.5,
    priceOutputPerMTok: 10,
  })
  saveModel(ws.db, {
    provider: 'anthropic',
    model: 'claude-fake',
    baseUrl: baseUrls.anthropic,
    capabilities: DEFAULT_CAPABILITIES.anthropic,
    priceInputPerMTok: 3,
    priceOutputPerMTok: 15,
  })
}

/** Gives the test dataset another label schema (RefChecker's verdicts need their own words). */
export function setDatasetSchema(ws: Workspace, schema: LabelSchema): void {
  ws.db.prepare('UPDATE datasets SET label_schema = ?').run(JSON.stringify(schema))
}
