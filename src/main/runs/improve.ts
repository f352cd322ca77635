import { toBinary } from '../../shared/labelSchemas'
import { countOf } from '../../shared/plural'
import { schemaFit, toSchemaWords } from '../judges/schemaFit'
import type { RewriteTask } from '../judges/types'
import { type Finding, findingOf, type RaiRound, raiCurve } from '../metrics/stats/rai'
import type { Db } from '../store/connection'
import { ContentWriter } from '../store/repos/content'
import { getDataset } from '../store/repos/datasets'
import { splitSentences } from '../units/splitter'
import { sentenceVerdictsOfCandidate, sentenceVerdictsOfRun } from '../verdicts/reads'
import { writeVerdicts } from '../verdicts/write'
import { accountFor } from './accounting'
import { RunFatal, RunStopped } from './caller'
import { llmOrigin } from './extract'
import { runPool } from './pool'
import { getRun } from './repo'
import type { RunSession } from './session'
import { loadJudgeTasks } from './tasks'

/**
 * What a stored verdict of a run says of its sentence: consistent (true), inconsistent (false), or
 * nothing (null: N/A or a failed call). Verdicts are in the dataset's schema (a yes/no dataset
 * stores DCR's decision as yes/no), so its binary mapping decides.
 */
function consistentIn(
  db: Db,
  runId: number,
): (row: { status: string; verdict: string | null }) => boolean | null {
  const schema = getDataset(db, getRun(db, runId).datasetId).labelSchema
  return (row) =>
    row.status !== 'ok' || row.verdict === null ? null : toBinary(schema, row.verdict) === 'supported'
}

/** Judged sentences of the given candidates in one run, grouped per candidate. */
function judgedCandidates(db: Db, runId: number, candidateIds: number[] | null): RewriteTask[] {
  const rows = sentenceVerdictsOfRun(db, runId, candidateIds)
  const consistent = consistentIn(db, runId)
  const tasks: RewriteTask[] = []
  for (const r of rows) {
    let task = tasks[tasks.length - 1]
    if (!task || task.candidate.id !== r.candidate_id) {
      task = {
        item: { id: r.item_id, question: r.question, reference: r.reference },
        candidate: { id: r.candidate_id, variant: r.variant, text: r.candidate_text },
        sentences: [],
      }
      tasks.push(task)
    }
    task.sentences.push({ text: r.text, consistent: consistent(r), reason: r.reason })
  }
  return tasks
}

/** Only a sentence the judge found inconsistent is worth a rewrite; one it gave no verdict on is not. */
const needsRewrite = (task: RewriteTask): boolean => task.sentences.some((x) => x.consistent === false)

const isRewrite = (variant: string): boolean => /\+rai\d+$/.test(variant)

/** What the first round of an improvement of a DCR run would do, said before it starts. */
export interface ImprovementPlan {
  /** Candidates with at least one sentence judged inconsistent: one rewrite call each. */
  candidates: number
  /** Sentences judged inconsistent. */
  inconsistent: number
  /** Sentences the judge gave no verdict on (N/A or failed): left as they are. */
  unjudged: number
  /** The variants the rewrites will be stored as. */
  variants: string[]
}

export function improvementPlan(db: Db, sourceRunId: number): ImprovementPlan {
  const tasks = judgedCandidates(db, sourceRunId, null).filter((t) => !isRewrite(t.candidate.variant))
  const chosen = tasks.filter(needsRewrite)
  const sentences = tasks.flatMap((t) => t.sentences)
  return {
    candidates: chosen.length,
    inconsistent: sentences.filter((x) => x.consistent === false).length,
    unjudged: sentences.filter((x) => x.consistent === null).length,
    variants: [...new Set(chosen.map((t) => raiVariant(t.candidate.variant, 1)))].sort(),
  }
}

/** Why there is nothing to improve, in the words a person reads; null when there is something. */
export function nothingToImprove(plan: ImprovementPlan, runId: number): string | null {
  if (plan.candidates > 0) return null
  const unjudged =
    plan.unjudged > 0
      ? ` (${countOf(plan.unjudged, 'sentence has', 'sentences have')} no verdict and ${plan.unjudged === 1 ? 'is' : 'are'} not rewritten)`
      : ''
  return `Nothing to improve: run ${runId} found no sentence inconsistent${unjudged}, so no rewrite is made and no variant added`
}

export const raiVariant = (variant: string, round: number) =>
  `${variant.replace(/\+rai\d+$/, '')}+rai${round}`

/** What a run's judge found of each sentence of a candidate (null: no verdict). */
function findingsOf(db: Db, runId: number, candidateId: number): (boolean | null)[] {
  const consistent = consistentIn(db, runId)
  return sentenceVerdictsOfCandidate(db, runId, candidateId).map(consistent)
}

export interface RoundReport extends RaiRound {
  /** Rewrites this round made; 0 when it had nothing to correct (and added no variant). */
  rewritten: number
  /**
   * Sentences of the rewritten candidates the judge gave no verdict on: never counted as
   * inconsistent, and the rewrite is asked to keep them word for word.
   */
  unjudged: number
  /** Of those, the ones the rewrite did keep word for word. */
  unjudgedKept: number
}

/**
 * Per-round consistency improvement rate of an improvement run, by the one rule the metrics use
 * (metrics/stats/rai.ts): every original found inconsistent counts, a failed rewrite as not
 * corrected, and the cumulative share over the originals beside each round's own.
 */
export function improvementReport(db: Db, runId: number, sourceRunId: number, rounds: number): RoundReport[] {
  const children = db
    .prepare(
      'SELECT id, parent_candidate_id AS parent, variant, text FROM candidates WHERE origin = ? AND variant LIKE ?',
    )
    .all(llmOrigin(runId), '%+rai%') as { id: number; parent: number; variant: string; text: string }[]
  const childOf = new Map(children.map((c) => [c.parent, c]))
  const originals = judgedCandidates(db, sourceRunId, null).filter((t) => !isRewrite(t.candidate.variant))
  const judgedRewrites = new Map(judgedCandidates(db, runId, null).map((t) => [t.candidate.id, t]))
  const chains: (Finding | null)[][] = []
  const extras = Array.from({ length: rounds }, () => ({ rewritten: 0, unjudged: 0, unjudgedKept: 0 }))
  for (const o of originals) {
    const chain: (Finding | null)[] = [findingOf(o.sentences.map((x) => x.consistent))]
    let parent: RewriteTask | undefined = o
    for (let k = 1; k <= rounds && parent; k++) {
      const found = childOf.get(parent.candidate.id)
      const child = found?.variant.endsWith(`+rai${k}`) ? found : undefined
      if (!child) {
        chain.push(null)
        break
      }
      const extra = extras[k - 1]!
      extra.rewritten++
      const left = parent.sentences.filter((x) => x.consistent === null)
      extra.unjudged += left.length
      extra.unjudgedKept += left.filter((x) => child.text.includes(x.text.trim())).length
      chain.push(findingOf(findingsOf(db, runId, child.id)))
      parent = judgedRewrites.get(child.id)
    }
    chains.push(chain)
  }
  return raiCurve(chains, rounds).map((r, i) => ({ ...r, ...extras[i]! }))
}

/**
 * DCR's RAI loop: rewrite every candidate with an inconsistent sentence, store the rewrite as
 * variant `<variant>+rai<k>`, split it into sentence units and judge it with the same DCR config.
 * Each round works on the previous round's rewrites.
 */
export async function runImprovement(s: RunSession): Promise<void> {
  const { db, run } = s
  const sourceRunId = run.config.sourceRunId
  const rounds = run.config.rounds ?? 1
  const dcr = s.registry.judges.dcr
  const improver = s.registry.improver
  if (sourceRunId === undefined) throw new RunFatal('An improvement run needs the DCR run it improves')
  if (!dcr || !improver) throw new RunFatal('DCR or its improver is not available')
  const writer = new ContentWriter(db)
  const labelSchema = getDataset(db, run.datasetId).labelSchema
  const fit = schemaFit('dcr', labelSchema)
  if (!fit.ok) throw new RunFatal(fit.reason)
  let judgeRun = sourceRunId
  let scope: number[] | null = null
  for (let k = 1; k <= rounds; k++) {
    const tasks = judgedCandidates(db, judgeRun, scope).filter(
      (t) => (k > 1 || !isRewrite(t.candidate.variant)) && needsRewrite(t),
    )
    // Nothing left to correct: later rounds would have nothing either.
    if (tasks.length === 0) break
    let done = 0
    s.progress(done, tasks.length)
    const children: number[] = []
    await runPool(
      tasks,
      run.config.concurrency * 2 + 2,
      s.signal,
      async (task) => {
        const variant = raiVariant(task.candidate.variant, k)
        const existing = db
          .prepare('SELECT id FROM candidates WHERE item_id = ? AND variant = ?')
          .get(task.item.id, variant) as { id: number } | undefined
        let childId = existing?.id ?? null
        if (childId === null) {
          const rewrite = await improver.rewrite(task, s.context())
          if ('problem' in rewrite || s.signal.aborted) return
          childId = db.transaction(() => {
            const id = writer.insertCandidate(task.item.id, {
              variant,
              text: rewrite.text,
              origin: llmOrigin(run.id),
              parentCandidateId: task.candidate.id,
            })
            for (const sentence of splitSentences(rewrite.text))
              writer.insertUnit(task.item.id, {
                kind: 'sentence',
                text: sentence.text,
                candidateId: id,
                origin: 'splitter',
              })
            return id
          })()
        }
        children.push(childId)
        const [judgeTask] = loadJudgeTasks(db, run.datasetId, dcr.unitKinds, { candidateIds: [childId] })
        if (judgeTask) {
          let callId: number | null = null
          const outcomes = accountFor(
            judgeTask.targets,
            toSchemaWords(
              fit,
              labelSchema,
              await dcr.judge(
                judgeTask,
                s.context((id) => {
                  callId = id
                }),
              ),
            ),
          )
          if (s.signal.aborted && outcomes.some((o) => o.status === 'error')) return
          writeVerdicts(db, run.id, outcomes, callId)
        }
        done++
        s.progress(done, tasks.length)
      },
      (e) => e instanceof RunStopped,
      () => s.stop(),
    )
    if (s.signal.aborted) return
    judgeRun = run.id
    scope = children
  }
}
