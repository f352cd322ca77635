import { peopleWithLabels } from '../labels/projectReads'
import type { Db } from '../store/connection'
import { getPlan } from './plan'

/**
 * People whose labels are on the dataset though the plan does not name them (a bundle merged from
 * someone else, say). The rule every view follows: a label is never dropped from agreement, gold
 * or Compare for who gave it; only the Project view's progress towards k counts the plan's people
 * alone. Views name these people so that the difference is said, not found.
 */
export function peopleOutsidePlan(db: Db, datasetId: number): string[] {
  const plan = getPlan(db, datasetId)
  if (!plan.planned || plan.annotators.length === 0) return []
  const named = new Set(plan.annotators.map((a) => a.annotatorId))
  return peopleWithLabels(db, datasetId)
    .filter((p) => !named.has(p.id))
    .map((p) => p.name)
}
