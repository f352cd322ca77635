import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { getModel } from '../../src/main/providers/models'
import { runSummary } from '../../src/main/runs/repo'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0090: batches and prompt cache', () => {
  it('keeps old models, runs and calls, with half-price batches and no cache tokens by default', () => {
    const file = join(tmp(), 'w.factlab')
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 90) })
    const ds = createDataset(old, { name: 'd', labelSchema: FAAF_SCHEMA })
    old
      .prepare(
        `INSERT INTO models (provider, model, base_url, capabilities, price_input_per_mtok, price_output_per_mtok)
         VALUES ('openai', 'gpt-old', '', '{}', 2, 8)`,
      )
      .run()
    // A run config from before this version: no mode, no batch or cache prices.
    const config = {
      provider: 'openai',
      model: 'gpt-old',
      method: 'faaf-tf',
      capabilities: {
        tools: true,
        forcedToolChoice: true,
        strictSchema: true,
        jsonMode: true,
        maxSchemaProperties: 100,
        maxEnumValues: 500,
      },
      prices: { input: 2, output: 8 },
    }
    const run = Number(
      old
        .prepare(
          `INSERT INTO runs (kind, dataset_id, provider, model, method, config, slice, status, created_at)
           VALUES ('judge', ?, 'openai', 'gpt-old', 'faaf-tf', ?, '{}', 'done', 'now')`,
        )
        .run(ds.id, JSON.stringify(config)).lastInsertRowid,
    )
    old
      .prepare(
        `INSERT INTO run_calls (run_id, call_key, status, prompt_tokens, completion_tokens, cost) VALUES (?, 'k', 'done', 100, 10, 0.5)`,
      )
      .run(run)
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBeGreaterThanOrEqual(90)
    expect(getModel(ws.db, 'openai', 'gpt-old', '')).toMatchObject({
      priceInputPerMTok: 2,
      batchDiscount: 0.5,
      priceCacheReadPerMTok: null,
      priceCacheWritePerMTok: null,
      capabilities: { jsonSchema: true },
    })
    expect(runSummary(ws.db, run)).toMatchObject({
      mode: 'sync',
      prompt_tokens: 100,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost: 0.5,
    })
    expect(() =>
      ws.db.prepare("UPDATE models SET batch_discount = 1.5 WHERE model = 'gpt-old'").run(),
    ).toThrow(/CHECK/)
    ws.close()
  })
})
