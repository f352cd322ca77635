import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LabelWriter } from '../../src/main/labels/labels'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { openWorkspace } from '../../src/main/store/connection'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { ContentWriter } from '../../src/main/store/repos/content'
import { createDataset } from '../../src/main/store/repos/datasets'
import { DCR_SCHEMA, REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { toJsonReport } from '../../src/shared/metricsJson'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from './fixture'

const tmp = tmpDirs()

/** Sentence-level dataset: each candidate's sentences are units judged against the reference. */
function sentenceDataset(
  schema: typeof DCR_SCHEMA,
  candidates: { item: string; variant: string; sentences: number }[],
) {
  const db = openWorkspace(freshWorkspaceFile(join(tmp(), 'w.factlab')), { skipQuickCheck: true })
  const ds = createDataset(db, { name: 'd', labelSchema: schema })
  const w = new ContentWriter(db)
  const items = new Map<string, number>()
  const targets: number[] = []
  for (const c of candidates) {
    let item = items.get(c.item)
    if (item === undefined) {
      item = w.insertItem(ds.id, { extId: c.item, reference: 'ref' }, items.size)
      items.set(c.item, item)
    }
    const cand = w.insertCandidate(item, { variant: c.variant, text: 'text' })
    for (let s = 0; s < c.sentences; s++) {
      const unit = w.insertUnit(item, { kind: 'sentence', text: `s${s}`, candidateId: cand })
      targets.push(w.targetId(unit, cand)!)
    }
  }
  const run = (method: string, verdicts: string[]) => {
    const id = Number(
      db
        .prepare(
          `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at) VALUES ('judge', ?, 'openai', 'm', ?, 'done', 'x')`,
        )
        .run(ds.id, method).lastInsertRowid,
    )
    verdicts.forEach((v, i) => {
      db.prepare("INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, 'ok', ?)").run(
        id,
        targets[i],
        v,
      )
    })
    return id
  }
  const labels = new LabelWriter(db)
  const label = (verdicts: string[]) => {
    const a = ensureAnnotator(db, 'ana').id
    verdicts.forEach((v, i) => {
      labels.save({ targetId: targets[i]!, annotatorId: a, verdict: v })
    })
  }
  return { db, datasetId: ds.id, run, label }
}

describe('method-specific figures in the service', () => {
  it('scores DCR candidates, correlates them with gold and reports the RAI rate per round', () => {
    const d = sentenceDataset(DCR_SCHEMA, [
      { item: 'a', variant: 'answer', sentences: 2 },
      { item: 'a', variant: 'answer+rai1', sentences: 2 },
      { item: 'b', variant: 'answer', sentences: 2 },
      { item: 'b', variant: 'answer+rai1', sentences: 2 },
    ])
    const C = 'consistent'
    const I = 'inconsistent'
    // a: inconsistent, its rewrite fixed; b: inconsistent, its rewrite still inconsistent.
    const runId = d.run('dcr', [C, I, C, C, I, I, C, I])
    d.label([C, I, C, C, I, C, C, C])
    const m = computeDatasetMetrics(d.db, d.datasetId)
    const judge = m.judges.find((j) => j.runId === runId)!
    expect(judge.rai).toMatchObject([{ round: 1, inconsistent: 2, corrected: 1, rate: 0.5 }])
    // Wilson, 1 of 2 (z = 1.96): centre (0.5 + z²/4) / (1 + z²/2) = 0.5, half-width
    // z/(1 + z²/2) · √(0.5·0.5/2 + z²/16) = 0.4055 → [0.0945, 0.9055].
    const ci = judge.rai[0]!.rateCi!
    expect(ci[0]).toBeCloseTo(0.0945, 4)
    expect(ci[1]).toBeCloseTo(0.9055, 4)
    const json = toJsonReport(m).judges.find((j) => j.run === runId)!
    expect(json.rai[0]).toMatchObject({ rate: 0.5, rate_ci: ci, rate_ci_method: 'wilson' })
    const perCandidate = m.correlations.find((c) => c.level === 'candidate')!
    // judge scores 0.5, 1, 0, 0.5 against gold 0.5, 1, 0.5, 1 (DCR score per candidate)
    expect(perCandidate.n).toBe(4)
    expect(perCandidate.pearson).toBeCloseTo(Math.SQRT1_2, 12)
  })

  it('counts a candidate whose rewrite is missing as not corrected, and gives the cumulative rate', () => {
    const d = sentenceDataset(DCR_SCHEMA, [
      { item: 'a', variant: 'answer', sentences: 2 },
      { item: 'a', variant: 'answer+rai1', sentences: 2 },
      { item: 'b', variant: 'answer', sentences: 2 },
      { item: 'b', variant: 'answer+rai1', sentences: 2 },
      { item: 'c', variant: 'answer', sentences: 2 },
    ])
    const C = 'consistent'
    const I = 'inconsistent'
    // a fixed; b's rewrite still inconsistent; c inconsistent with no rewrite (the call failed).
    const runId = d.run('dcr', [C, I, C, C, I, I, C, I, I, C])
    const m = computeDatasetMetrics(d.db, d.datasetId)
    const [r1] = m.judges.find((j) => j.runId === runId)!.rai
    // 1 of the 3 inconsistent originals, not 1 of the 2 rewrites made.
    expect(r1).toMatchObject({ inconsistent: 3, corrected: 1, failed: 1, unscored: 0, rate: 1 / 3 })
    expect(r1).toMatchObject({ originals: 3, correctedSoFar: 1, cumulativeRate: 1 / 3 })
    // Wilson, 1 of 3 (z = 1.96): centre (1/3 + z²/6) / (1 + z²/3) = 0.4269, half-width
    // z/(1 + z²/3) · √(2/27 + z²/36) = 0.3654 → [0.0615, 0.7923].
    expect(r1!.cumulativeCi![0]).toBeCloseTo(0.0615, 4)
    expect(r1!.cumulativeCi![1]).toBeCloseTo(0.7923, 4)
    const json = toJsonReport(m).judges.find((j) => j.run === runId)!
    expect(json.rai[0]).toMatchObject({ failed: 1, corrected_so_far: 1, cumulative_rate: 1 / 3 })
  })

  it('macro-averages the RefChecker distribution of a judge and of gold', () => {
    const d = sentenceDataset(REFCHECKER_SCHEMA, [
      { item: 'a', variant: 'answer', sentences: 3 },
      { item: 'b', variant: 'answer', sentences: 1 },
    ])
    d.run('refchecker', ['entailment', 'neutral', 'contradiction', 'entailment'])
    d.label(['entailment', 'entailment', 'contradiction', 'contradiction'])
    const m = computeDatasetMetrics(d.db, d.datasetId)
    expect(m.judges[0]!.refchecker!.entailment).toBeCloseTo((1 / 3 + 1) / 2, 12)
    expect(m.goldRefchecker!.contradiction).toBeCloseTo((1 / 3 + 1) / 2, 12)
  })

  it('handles numeric schemas: threshold for the error rate, scores for correlations', () => {
    const fx = makeFixture(tmp(), {
      items: 4,
      variants: ['s'],
      facts: 1,
      schema: { type: 'numeric', name: 'score', min: 1, max: 5, step: 1, threshold: 3 },
    })
    fx.labelAll('ana', ['1', '2', '4', '5'])
    fx.run('m', ['2', '3', '4', 'oops'])
    const m = computeDatasetMetrics(fx.db, fx.datasetId)
    const j = m.judges[0]!
    // "oops" is not a number: N/A. Of the rest, 3 ≥ threshold disagrees with gold 2.
    expect(j).toMatchObject({ n: 3, na: 1 })
    expect(j.errorRate).toBeCloseTo(1 / 3, 12)
    // Three scored pairs are too few for any correlation (over three, Spearman is 1 here by the
    // luck of the order): none is given, rather than a 1.000 that reads as a finding.
    expect(m.correlations[0]).toMatchObject({
      against: 'numeric',
      n: 3,
      pearson: null,
      spearman: null,
      kendallTauB: null,
      auroc: null,
    })
  })
})
