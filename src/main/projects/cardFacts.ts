import type { Db } from '../store/connection'
import { controlAccuracy, controlCount } from './controls'
import { getPlan } from './plan'

/** What a dataset card says about how the labels were made (k, policy, guidelines, controls). */
export interface ProjectCardFacts {
  planned: boolean
  k: number
  policy: 'open' | 'fixed'
  seed: number
  guidelinesVersion: number | null
  controls: number
  controlAccuracy: {
    name: string
    answered: number
    correct: number
    low: number | null
    high: number | null
  }[]
}

/** The card's project facts, or null for a dataset with no plan, guidelines or controls. */
export function projectCardFacts(db: Db, datasetId: number): ProjectCardFacts | null {
  const plan = getPlan(db, datasetId)
  const controls = controlCount(db, datasetId)
  if (!plan.planned && plan.guidelinesVersion === null && controls === 0) return null
  const names = new Map(
    (db.prepare('SELECT id, name FROM annotators').all() as { id: number; name: string }[]).map((a) => [
      a.id,
      a.name,
    ]),
  )
  return {
    planned: plan.planned,
    k: plan.k,
    policy: plan.policy,
    seed: plan.seed,
    guidelinesVersion: plan.guidelinesVersion,
    controls,
    controlAccuracy: [...controlAccuracy(db, datasetId)]
      .map(([id, c]) => ({
        name: names.get(id) ?? `#${id}`,
        answered: c.answered,
        correct: c.correct,
        low: c.interval?.low ?? null,
        high: c.interval?.high ?? null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  }
}
