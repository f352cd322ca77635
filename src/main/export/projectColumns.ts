import { z } from 'zod'
import { guidelinesVersions } from '../guidelines/guidelines'
import { getPlan } from '../projects/plan'
import type { Db } from '../store/connection'

/**
 * The annotation project of a dataset as two cells of the targets layout: every guidelines
 * version, and the plan (k, policy, seed, control rate, hourly rates, the fixed assignment). Both
 * are dataset-level and can be long (the guidelines' Markdown, an assignment per item), so they
 * stand on the file's first row only, where FactLab's import reads them (presets/factlab.ts); the
 * other rows leave them empty, which costs a CSV a comma and Parquet nothing.
 */

export const GuidelinesCell = z.array(
  z.object({
    version: z.number().int().min(1),
    body: z.string(),
    author: z.string().nullable(),
    created_at: z.string(),
  }),
)
export type GuidelinesCell = z.infer<typeof GuidelinesCell>

const Rate = z.number().nonnegative().nullable()

export const PlanCell = z.object({
  k: z.number().int().min(1),
  policy: z.enum(['open', 'fixed']),
  seed: z.number().int(),
  control_rate: z.number().min(0).max(1),
  hourly_rate: Rate,
  annotators: z.array(z.object({ name: z.string().min(1), hourly_rate: Rate })),
  /** Fixed policy: each named annotator's items, by item_id (ids differ between workspaces). */
  assignments: z.record(z.string(), z.array(z.string())).optional(),
})
export type PlanCell = z.infer<typeof PlanCell>

/** Every guidelines version, oldest first, as JSON; null when the dataset has none. */
export function guidelinesCell(db: Db, datasetId: number): string | null {
  const versions = guidelinesVersions(db, datasetId).reverse()
  if (versions.length === 0) return null
  return JSON.stringify(
    versions.map((v): GuidelinesCell[number] => ({
      version: v.version,
      body: v.body,
      author: v.author,
      created_at: v.createdAt,
    })),
  )
}

/** The plan as JSON, or null when none was set. */
export function planCell(db: Db, datasetId: number): string | null {
  const plan = getPlan(db, datasetId)
  if (!plan.planned) return null
  const cell: PlanCell = {
    k: plan.k,
    policy: plan.policy,
    seed: plan.seed,
    control_rate: plan.controlRate,
    hourly_rate: plan.hourlyRate,
    annotators: plan.annotators.map((a) => ({ name: a.name, hourly_rate: a.hourlyRate })),
  }
  if (plan.policy === 'fixed') {
    const rows = db
      .prepare(
        `SELECT a.name, i.ext_id FROM assignments s JOIN annotators a ON a.id = s.annotator_id
         JOIN items i ON i.id = s.item_id WHERE s.dataset_id = ? ORDER BY a.name, i.position, i.id`,
      )
      .raw()
      .all(datasetId) as [string, string][]
    const assignments: Record<string, string[]> = {}
    for (const [name, item] of rows) {
      assignments[name] ??= []
      assignments[name].push(item)
    }
    cell.assignments = assignments
  }
  return JSON.stringify(cell)
}
