import { JudgeConfig, type JudgeConfigInput, JudgeSettings } from '../../shared/contract/judges'
import type { Db } from '../store/connection'
import { now, parseJson } from '../store/repos/rows'
import type { RunRequest } from './create'

interface Row {
  id: number
  name: string
  provider: string
  model: string
  method: string
  base_url: string | null
  settings: string
  created_at: string
}

function toConfig(r: Row): JudgeConfig {
  return JudgeConfig.parse({
    id: r.id,
    name: r.name,
    provider: r.provider,
    model: r.model,
    baseUrl: r.base_url,
    method: r.method,
    settings: parseJson(JudgeSettings, r.settings, 'judge_configs.settings'),
    createdAt: r.created_at,
  })
}

export function listConfigs(db: Db): JudgeConfig[] {
  return (db.prepare('SELECT * FROM judge_configs ORDER BY name').all() as Row[]).map(toConfig)
}

export function getConfig(db: Db, id: number): JudgeConfig {
  const row = db.prepare('SELECT * FROM judge_configs WHERE id = ?').get(id) as Row | undefined
  if (!row) throw new Error(`No judge config with id ${id}`)
  return toConfig(row)
}

/** Saves a judge config; runs keep their own snapshot, so editing one never changes a result. */
export function saveConfig(db: Db, c: JudgeConfigInput): JudgeConfig {
  if (c.provider === 'openai-compatible' && !c.baseUrl?.trim())
    throw new Error('An openai-compatible judge needs a base URL, e.g. http://localhost:11434/v1')
  const clash = db.prepare('SELECT id FROM judge_configs WHERE name = ?').get(c.name) as
    | { id: number }
    | undefined
  if (clash && clash.id !== c.id) throw new Error(`A judge config named "${c.name}" already exists`)
  const settings = JSON.stringify(JudgeSettings.parse(c.settings))
  const baseUrl = c.baseUrl?.trim() ? c.baseUrl.trim() : null
  if (c.id !== undefined) {
    const info = db
      .prepare(
        'UPDATE judge_configs SET name = ?, provider = ?, model = ?, method = ?, base_url = ?, settings = ? WHERE id = ?',
      )
      .run(c.name, c.provider, c.model, c.method, baseUrl, settings, c.id)
    if (info.changes === 0) throw new Error(`No judge config with id ${c.id}`)
    return getConfig(db, c.id)
  }
  const info = db
    .prepare(
      'INSERT INTO judge_configs (name, provider, model, method, base_url, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(c.name, c.provider, c.model, c.method, baseUrl, settings, now())
  return getConfig(db, Number(info.lastInsertRowid))
}

/** A run request from a saved config: pacing options come out of the settings. */
export function requestFromConfig(c: JudgeConfig, datasetId: number): RunRequest {
  const { concurrency, rpm, tpm, timeoutMs, maxAttempts, cache, ...method } = c.settings
  const isGenerator = ['facts', 'questions', 'triplets', 'sentences'].includes(c.method)
  return {
    kind: isGenerator ? 'extract' : 'judge',
    datasetId,
    judgeConfigId: c.id,
    provider: c.provider,
    model: c.model,
    baseUrl: c.baseUrl,
    method: c.method,
    settings: method,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(rpm !== undefined ? { rpm } : {}),
    ...(tpm !== undefined ? { tpm } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
    ...(cache !== undefined ? { cache } : {}),
  }
}
