import { z } from 'zod'
import runsJson from '../../../resources/demo/wikieval-demo-runs.json'
import { FAAF_SCHEMA } from '../../shared/labelSchemas'
import {
  DEFAULT_LEXICAL_METRIC,
  DEFAULT_LEXICAL_THRESHOLD,
  lexicalScores,
  pickScore,
  verdictFor,
} from '../judges/lexical'
import { defaultCapabilities } from '../providers/models'
import { RunConfig } from '../runs/config'
import type { Db } from '../store/connection'
import { importedVerdictWriter } from '../verdicts/write'

const Verdict = z.enum(['true', 'false', 'not_clear', 'NA'])

const DemoRuns = z.object({
  note: z.string(),
  runs: z.array(
    z.object({
      model: z.string().startsWith('illustrative-'),
      method: z.string(),
      /** One provider call per candidate (FaaF) or per target (Prompt T/F). */
      calls: z.enum(['candidate', 'target']),
      promptTokens: z.number().int(),
      completionTokens: z.number().int(),
      costPerCall: z.number(),
      latencyMs: z.number().int(),
      /** item id → variant → one verdict per fact, in fact order ("NA": a reply that could not be read). */
      verdicts: z.record(z.string(), z.record(z.string(), z.array(Verdict))),
    }),
  ),
})

interface TargetRow {
  id: number
  itemId: string
  variant: string
  candidateId: number
  position: number
  fact: string
  candidate: string
}

const AT = '2026-01-01T00:00:00Z'

/**
 * The demo's judge runs, so Compare has something to compare on a first start: three
 * illustrative runs whose verdicts were written for the demo (the file and the model names say
 * so; no model made them), and the lexical baseline, computed here as the app's own lexical
 * judge would, since it needs no key and no network.
 */
export function loadDemoRuns(db: Db, datasetId: number): number[] {
  const demo = DemoRuns.parse(runsJson)
  const targets = db
    .prepare(
      `SELECT t.id AS id, i.ext_id AS itemId, c.variant AS variant, c.id AS candidateId, u.position AS position,
              u.text AS fact, c.text AS candidate
       FROM targets t JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
       JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = ? ORDER BY t.id`,
    )
    .all(datasetId) as TargetRow[]
  const insRun = db.prepare(
    `INSERT INTO runs (kind, dataset_id, provider, model, method, config, status, total_calls, created_at, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)`,
  )
  const insCall = db.prepare(
    `INSERT INTO run_calls (run_id, call_key, status, latency_ms, prompt_tokens, completion_tokens, cost)
     VALUES (?, ?, 'done', ?, ?, ?, ?)`,
  )
  const ids: number[] = []
  for (const r of demo.runs) {
    const keys = new Set(targets.map((t) => (r.calls === 'candidate' ? `c${t.candidateId}` : `t${t.id}`)))
    const runId = Number(
      insRun.run(
        'imported',
        datasetId,
        'imported',
        r.model,
        r.method,
        JSON.stringify({ illustrative: true, note: demo.note }),
        keys.size,
        AT,
        AT,
        '2026-01-01T00:04:00Z',
      ).lastInsertRowid,
    )
    for (const key of keys)
      insCall.run(runId, key, r.latencyMs, r.promptTokens, r.completionTokens, r.costPerCall)
    const write = importedVerdictWriter(db, runId)
    for (const t of targets) {
      const v = r.verdicts[t.itemId]?.[t.variant]?.[t.position]
      if (v === undefined) continue
      if (v === 'NA')
        write({
          targetId: t.id,
          status: 'na',
          verdict: null,
          score: null,
          reason: 'illustrative: a reply that could not be read',
          citation: null,
        })
      else write({ targetId: t.id, status: 'ok', verdict: v, score: null, reason: null, citation: null })
    }
    ids.push(runId)
  }
  const lexicalRun = Number(
    insRun.run(
      'judge',
      datasetId,
      'lexical',
      DEFAULT_LEXICAL_METRIC,
      'lexical',
      // A full run config, as a run made in the app has, so the Judges view can read and repeat it.
      JSON.stringify(
        RunConfig.parse({
          provider: 'lexical',
          model: DEFAULT_LEXICAL_METRIC,
          method: 'lexical',
          settings: { lexicalMetric: DEFAULT_LEXICAL_METRIC, lexicalThreshold: DEFAULT_LEXICAL_THRESHOLD },
          capabilities: defaultCapabilities('lexical'),
          prices: { input: 0, output: 0 },
        }),
      ),
      // One task per candidate, as a lexical run made in the app counts its work.
      new Set(targets.map((t) => t.candidateId)).size,
      AT,
      AT,
      AT,
    ).lastInsertRowid,
  )
  const writeLexical = importedVerdictWriter(db, lexicalRun)
  for (const t of targets) {
    // A fact is checked against the candidate (factual recall), as the lexical judge does.
    const score = pickScore(lexicalScores(t.fact, t.candidate), DEFAULT_LEXICAL_METRIC, 'fact')
    const verdict = verdictFor(score, DEFAULT_LEXICAL_THRESHOLD, 'fact', FAAF_SCHEMA)
    writeLexical({
      targetId: t.id,
      status: 'ok',
      verdict,
      score: Math.round(score * 10000) / 10000,
      reason: null,
      citation: null,
    })
  }
  ids.push(lexicalRun)
  return ids
}
