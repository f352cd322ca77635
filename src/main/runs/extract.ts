import { countOf } from '../../shared/plural'
import type { GenerateOutcome, GenerateTask } from '../judges/types'
import { ContentWriter } from '../store/repos/content'
import { RunFatal, RunStopped } from './caller'
import { runPool } from './pool'
import { noteOnRun, setRunTotal } from './repo'
import type { RunSession } from './session'
import { loadGenerateTasks } from './tasks'

export const llmOrigin = (runId: number) => `llm:${runId}`

/** Tasks this run already wrote units or a question for (so a resume does not add them twice). */
function finishedKeys(s: RunSession): Set<string> {
  const rows = s.db
    .prepare('SELECT DISTINCT item_id, candidate_id FROM units WHERE origin = ?')
    .all(llmOrigin(s.run.id)) as { item_id: number; candidate_id: number | null }[]
  return new Set(rows.map((r) => `${r.item_id}:${r.candidate_id ?? ''}`))
}

const taskKey = (t: GenerateTask, perCandidate: boolean) =>
  `${t.item.id}:${perCandidate && t.candidate ? t.candidate.id : ''}`

/**
 * `units generate`: facts and questions per item, triplets and sentences per candidate. Units
 * are written through ContentWriter with origin `llm:<run>`, so targets follow; a generated
 * question only fills items that have none.
 */
export async function runExtraction(s: RunSession): Promise<void> {
  const gen = s.registry.generators[s.run.method]
  if (!gen) throw new RunFatal(`Unknown generator "${s.run.method}"`)
  const all = loadGenerateTasks(s.db, s.run.datasetId, gen.perCandidate, s.run.slice)
  const tasks = gen.name === 'questions' ? all.filter((t) => t.item.question === null) : all
  const finished = finishedKeys(s)
  const pending = tasks.filter((t) => !finished.has(taskKey(t, gen.perCandidate)))
  setRunTotal(s.db, s.run.id, tasks.length)
  let done = tasks.length - pending.length
  s.progress(done, tasks.length)
  const writer = new ContentWriter(s.db)
  const setQuestion = s.db.prepare('UPDATE items SET question = ? WHERE id = ? AND question IS NULL')
  const problems: string[] = []
  await runPool(
    pending,
    s.run.config.concurrency * 2 + 2,
    s.signal,
    async (task) => {
      let outcome: GenerateOutcome
      try {
        outcome = await gen.generate(task, s.context())
      } catch (error) {
        if (error instanceof RunStopped || error instanceof RunFatal) throw error
        outcome = { problem: error instanceof Error ? error.message : String(error) }
      }
      if (s.signal.aborted) return
      s.db.transaction(() => {
        for (const u of outcome.units ?? []) {
          writer.insertUnit(task.item.id, {
            kind: u.kind,
            text: u.text,
            candidateId: u.kind === 'fact' ? null : (task.candidate?.id ?? null),
            triplet: u.triplet ?? null,
            origin: llmOrigin(s.run.id),
          })
        }
        if (outcome.question?.trim()) setQuestion.run(outcome.question.trim(), task.item.id)
      })()
      if (outcome.problem) problems.push(`item ${task.item.id}: ${outcome.problem}`)
      done++
      s.progress(done, tasks.length)
    },
    (e) => e instanceof RunStopped,
    () => s.stop(),
  )
  if (problems.length > 0)
    noteOnRun(
      s.db,
      s.run.id,
      `${countOf(problems.length, 'task')} gave nothing usable; first: ${problems[0]}`,
    )
}
