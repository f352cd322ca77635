import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { exportVerdicts } from '../../src/main/export'
import { callSums } from '../../src/main/runs/cost'
import { tmpDirs } from '../helpers/tmp'
import { seedWorkspace, wsFile } from './seed'

const tmp = tmpDirs()

function seedRun(dir: string) {
  const seeded = seedWorkspace(wsFile(dir))
  const { ws, ds, targets } = seeded
  const db = ws.db
  const runId = Number(
    db
      .prepare(
        `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
         VALUES ('judge', ?, 'openai', 'gpt-x', 'faaf-tf', 'done', '2026-01-01')`,
      )
      .run(ds.id).lastInsertRowid,
  )
  // One FaaF call judged the first two targets; a stored header must never reach an export.
  const request = JSON.stringify({
    model: 'gpt-x',
    messages: [{ role: 'user', content: 'facts…' }],
    headers: { authorization: 'Bearer sk-secret' },
  })
  const response = JSON.stringify({ choices: [{ message: { tool_calls: [] } }], api_key: 'sk-secret' })
  const callId = Number(
    db
      .prepare(
        `INSERT INTO run_calls (run_id, call_key, status, request, response, attempts, latency_ms, prompt_tokens, completion_tokens)
         VALUES (?, 'c1', 'done', ?, ?, 1, 420, 100, 20)`,
      )
      .run(runId, request, response).lastInsertRowid,
  )
  const verdict = db.prepare(
    'INSERT INTO verdicts (run_id, target_id, call_id, status, verdict, reason, citation) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  verdict.run(
    runId,
    targets[0]!.targetId,
    callId,
    'ok',
    'true',
    'stated, with "quotes"',
    'Frank Herbert wrote Dune',
  )
  verdict.run(runId, targets[1]!.targetId, callId, 'na', null, 'fact_1 missing from the reply', null)
  return { ...seeded, runId }
}

describe('verdict export', () => {
  it('writes status, verdict, reason and citation per target, without raw calls unless asked', async () => {
    const dir = tmp()
    const { ws, runId, targets } = seedRun(dir)
    const out = join(dir, 'v.jsonl')
    expect(await exportVerdicts(ws, { runId, out })).toEqual({ file: out, rows: 2 })
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows[0]).toMatchObject({
      item_id: targets[0]!.item,
      variant: targets[0]!.variant,
      unit_text: targets[0]!.fact,
      status: 'ok',
      verdict: 'true',
      citation: 'Frank Herbert wrote Dune',
      prompt_tokens: 100,
    })
    expect(rows[1]).toMatchObject({ status: 'na', verdict: null, reason: 'fact_1 missing from the reply' })
    expect(rows[0]).not.toHaveProperty('request')
    ws.close()
  })

  it('adds the raw request and reply with --raw, never any credential', async () => {
    const dir = tmp()
    const { ws, runId } = seedRun(dir)
    const out = join(dir, 'v.csv')
    await exportVerdicts(ws, { runId, out, raw: true })
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain('sk-secret')
    const rows = parse(text, { columns: true }) as Record<string, string>[]
    expect(rows).toHaveLength(2)
    expect(rows[0]!.reason).toBe('stated, with "quotes"')
    expect(JSON.parse(rows[0]!.request!)).toEqual({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'facts…' }],
    })
    expect(JSON.parse(rows[1]!.response!)).toEqual({ choices: [{ message: { tool_calls: [] } }] })
    ws.close()
  })

  it("counts each call's tokens once, names the call, and rounds its latency to 0.1 ms", async () => {
    const dir = tmp()
    const { ws, runId, targets } = seedRun(dir)
    const db = ws.db
    // The timer's float noise on the first call, and a second call answering two more facts.
    db.prepare('UPDATE run_calls SET latency_ms = 189.9768280000003 WHERE call_key = ?').run('c1')
    const second = Number(
      db
        .prepare(
          `INSERT INTO run_calls (run_id, call_key, status, attempts, latency_ms, prompt_tokens, completion_tokens)
           VALUES (?, 'c2', 'done', 2, 12.34, 50, 10)`,
        )
        .run(runId).lastInsertRowid,
    )
    const verdict = db.prepare(
      "INSERT INTO verdicts (run_id, target_id, call_id, status, verdict) VALUES (?, ?, ?, 'ok', 'false')",
    )
    verdict.run(runId, targets[2]!.targetId, second)
    verdict.run(runId, targets[3]!.targetId, second)
    const jsonl = join(dir, 'v.jsonl')
    const csv = join(dir, 'v.csv')
    await exportVerdicts(ws, { runId, out: jsonl })
    await exportVerdicts(ws, { runId, out: csv })
    const fromJson = readFileSync(jsonl, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const fromCsv = parse(readFileSync(csv, 'utf8'), { columns: true }) as Record<string, string>[]
    // What `judge status` reports for the run.
    const summary = callSums(db, runId)
    expect(summary.pt).toBe(150)
    for (const rows of [fromJson, fromCsv]) {
      // A spreadsheet's column sum is the run's tokens, not each call's once per fact.
      const sum = (c: string) => rows.reduce((n, r) => n + Number(r[c] || 0), 0)
      expect(sum('prompt_tokens')).toBe(summary.pt)
      expect(sum('completion_tokens')).toBe(summary.ct)
      // Each call's own figures beside its key, in whatever order its rows come.
      const byCall = (c: string) => rows.map((r) => `${r.call_key} ${r[c] === null ? '' : r[c]}`).sort()
      expect(byCall('latency_ms')).toEqual(['c1 190', 'c1 190', 'c2 12.3', 'c2 12.3'])
      expect(byCall('attempts')).toEqual(['c1 1', 'c1 1', 'c2 2', 'c2 2'])
      expect(byCall('prompt_tokens')).toEqual(['c1 ', 'c1 100', 'c2 ', 'c2 50'])
    }
    expect(fromJson.map((r) => r.call_cached)).toEqual([false, false, false, false])
    ws.close()
  })

  it('refuses an unknown run', async () => {
    const dir = tmp()
    const { ws } = seedRun(dir)
    await expect(exportVerdicts(ws, { runId: 999, out: join(dir, 'x.jsonl') })).rejects.toThrow(
      /No run with id 999/,
    )
    ws.close()
  })
})
