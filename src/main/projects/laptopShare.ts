import type { AnnotatorFigures, Dashboard, Plan } from '../../shared/contract/projects'
import type { Db } from '../store/connection'

/**
 * What a laptop's dashboard covers: one person's share of the lead's plan, as the package
 * carried it. Only she labels here, so no target reaches k and a forecast of the whole plan from
 * her pace alone would be the team's finish guessed from one person. Her share is also counted
 * differently from the lead's: a control she answered before the package was written travels as
 * an ordinary target (packageExport.ts), so it is in her share here and not at the lead's.
 */
export function laptopShare(
  db: Db,
  plan: Plan,
  annotators: readonly AnnotatorFigures[],
  controls: number,
): NonNullable<Dashboard['laptop']> | null {
  const owner = plan.fromPackage
  if (!owner) return null
  const me = annotators.find((a) => a.name === owner.annotator)
  if (!me) return null
  const items =
    plan.policy === 'fixed'
      ? db
          .prepare('SELECT COUNT(*) AS n FROM assignments WHERE dataset_id = ? AND annotator_id = ?')
          .get(plan.datasetId, me.annotatorId)
      : db.prepare('SELECT COUNT(*) AS n FROM items WHERE dataset_id = ?').get(plan.datasetId)
  return {
    annotator: me.name,
    items: (items as { n: number }).n,
    targets: me.assigned ?? 0,
    done: Math.min(me.assignedDone, me.assigned ?? 0),
    controls,
  }
}
