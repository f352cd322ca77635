import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import type { VerdictOutcome } from '../../src/main/judges/types'
import { LabelWriter } from '../../src/main/labels/labels'
import type { Db } from '../../src/main/store/connection'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA, type LabelSchema } from '../../src/shared/labelSchemas'
import { templates } from '../helpers/templates'

export interface Fixture {
  db: Db
  datasetId: number
  /** Target ids in creation order, with their candidate variant. */
  targets: { id: number; variant: string }[]
  label(annotator: string, targetIndex: number, verdict: string): void
  /** Labels targets[0..] in order; null leaves a target unlabelled. */
  labelAll(annotator: string, verdicts: (string | null)[]): void
  /** Adds an imported run; verdicts[i] applies to targets[i] (null: no verdict row; 'NA'/'ERR': status). */
  run(model: string, verdicts: (string | null)[], opts?: RunOpts): number
}

export interface RunOpts {
  provider?: string
  method?: string
  repeatIndex?: number
  kind?: 'judge' | 'imported'
  scores?: (number | null)[]
  calls?: { promptTokens: number; completionTokens: number; cost: number; latencyMs: number }[]
}

/**
 * A new workspace at the current schema: a copy of the run's empty workspace (templates.ts).
 * Running every migration on each new file made a property test of sixty fixtures take a minute
 * on a busy machine, past the test timeout.
 */
function freshWorkspace(dir: string): Db {
  const file = join(dir, 'w.factlab')
  copyFileSync(templates().empty, file)
  return openWorkspace(file, { skipQuickCheck: true })
}

/**
 * A workspace with `items` items, each with the given candidate variants and `facts` facts, so
 * every item yields variants × facts targets.
 */
export function makeFixture(
  dir: string,
  opts: { items: number; variants: string[]; facts: number; schema?: LabelSchema },
): Fixture {
  const db = freshWorkspace(dir)
  const ds = createDataset(db, { name: 'demo', labelSchema: opts.schema ?? FAAF_SCHEMA })
  const w = new ContentWriter(db)
  db.transaction(() => {
    for (let i = 0; i < opts.items; i++) {
      const item = w.insertItem(ds.id, { extId: `q${i}`, question: `Q${i}?`, reference: `Ref ${i}.` }, i)
      for (const v of opts.variants) w.insertCandidate(item, { variant: v, text: `${v} ${i}` })
      for (let f = 0; f < opts.facts; f++) w.insertUnit(item, { kind: 'fact', text: `Fact ${i}.${f}` })
    }
  })()
  const targets = db
    .prepare(
      `SELECT t.id AS id, c.variant AS variant FROM targets t JOIN candidates c ON c.id = t.candidate_id
       WHERE t.dataset_id = ? ORDER BY t.id`,
    )
    .all(ds.id) as { id: number; variant: string }[]
  const labels = new LabelWriter(db)
  const insRun = db.prepare(
    `INSERT INTO runs (kind, dataset_id, provider, model, method, repeat_index, status, created_at, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, 'done', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:10Z')`,
  )
  const insVerdict = db.prepare(
    'INSERT INTO verdicts (run_id, target_id, status, verdict, score) VALUES (?, ?, ?, ?, ?)',
  )
  const insCall = db.prepare(
    `INSERT INTO run_calls (run_id, call_key, status, latency_ms, prompt_tokens, completion_tokens, cost)
     VALUES (?, ?, 'done', ?, ?, ?, ?)`,
  )
  return {
    db,
    datasetId: ds.id,
    targets,
    label(annotator, targetIndex, verdict) {
      const a = ensureAnnotator(db, annotator)
      labels.save({ targetId: targets[targetIndex]!.id, annotatorId: a.id, verdict })
    },
    labelAll(annotator, verdicts) {
      for (const [i, v] of verdicts.entries()) if (v !== null) this.label(annotator, i, v)
    },
    run(model, verdicts, o = {}) {
      const info = insRun.run(
        o.kind ?? 'imported',
        ds.id,
        o.provider ?? 'imported',
        model,
        o.method ?? 'faaf-tf',
        o.repeatIndex ?? 0,
      )
      const runId = Number(info.lastInsertRowid)
      verdicts.forEach((v, i) => {
        if (v === null) return
        const status = v === 'NA' ? 'na' : v === 'ERR' ? 'error' : 'ok'
        insVerdict.run(runId, targets[i]!.id, status, status === 'ok' ? v : null, o.scores?.[i] ?? null)
      })
      for (const [i, c] of (o.calls ?? []).entries())
        insCall.run(runId, `c${i}`, c.latencyMs, c.promptTokens, c.completionTokens, c.cost)
      return runId
    },
  }
}

/**
 * Verdicts as a judge pass hands them to writeVerdictsMany: one candidate's outcomes per write
 * (`NA` → na, `ERR` → error, null → nothing written for that target).
 */
export function bulkWrites(
  targets: readonly { id: number }[],
  verdicts: readonly (readonly [number, string | null])[],
): { outcomes: VerdictOutcome[]; callId: null }[] {
  return verdicts.flatMap(([i, v]) => {
    const target = targets[i]
    if (target === undefined || v === null) return []
    const status = v === 'NA' ? 'na' : v === 'ERR' ? 'error' : 'ok'
    return [
      { outcomes: [{ targetId: target.id, status, verdict: status === 'ok' ? v : null }], callId: null },
    ]
  })
}
