import type { ImportWarning } from '../../shared/importWarnings'
import type { Db } from '../store/connection'
import { now } from '../store/repos/rows'
import type { NormProject } from './normalized'

/**
 * Writes the guidelines and plan FactLab's own export carried into the dataset it imported, once
 * every row is in: labels were saved with the version they name and before any guidelines existed
 * here, so the stamping triggers (migration 0080) gave none of them the latest version instead.
 * Rates belong to this dataset's plan alone; where a person is paid otherwise on another dataset
 * of this workspace, that rate stays and the import says which one the file brought.
 */
export function writeProject(
  db: Db,
  datasetId: number,
  project: NormProject,
  /** The person of a name (found, else added); null when a label source holds the name. */
  person: (name: string) => number | null,
): ImportWarning[] {
  const warnings: ImportWarning[] = []
  const insGuidelines = db.prepare(
    'INSERT INTO guidelines (dataset_id, version, body, author, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  for (const g of project.guidelines) insGuidelines.run(datasetId, g.version, g.body, g.author, g.createdAt)
  const plan = project.plan
  if (!plan) return warnings

  // Read before this dataset's rows exist, so only other datasets' rates are compared.
  const elsewhere = db.prepare(
    `SELECT d.name, coalesce(p.hourly_rate, dp.hourly_rate) AS rate FROM plan_annotators p
     JOIN datasets d ON d.id = p.dataset_id LEFT JOIN dataset_plans dp ON dp.dataset_id = p.dataset_id
     JOIN annotators a ON a.id = p.annotator_id
     WHERE a.name = ? AND p.dataset_id <> ? AND d.state <> 'importing'
       AND coalesce(p.hourly_rate, dp.hourly_rate) IS NOT NULL ORDER BY d.name`,
  )
  for (const a of plan.annotators) {
    const rate = a.hourlyRate ?? plan.hourlyRate
    if (rate === null) continue
    const other = (elsewhere.all(a.name.trim(), datasetId) as { name: string; rate: number }[]).filter(
      (r) => r.rate !== rate,
    )
    if (other.length === 0) continue
    warnings.push({
      kind: 'plan',
      message: `the file's plan pays "${a.name}" ${rate} an hour on this dataset; ${other.map((r) => `"${r.name}" keeps ${r.rate}`).join(', ')} (each dataset has its own rates)`,
    })
  }

  db.prepare(
    `INSERT INTO dataset_plans (dataset_id, k, policy, seed, control_rate, hourly_rate, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(datasetId, plan.k, plan.policy, plan.seed, plan.controlRate, plan.hourlyRate, now())
  const named = db.prepare(
    'INSERT OR IGNORE INTO plan_annotators (dataset_id, annotator_id, hourly_rate) VALUES (?, ?, ?)',
  )
  const ids = new Map<string, number>()
  for (const a of plan.annotators) {
    const id = person(a.name)
    if (id === null) {
      warnings.push({
        kind: 'plan',
        message: `the file's plan names "${a.name}", which is a label source here, not a person: left out of the plan`,
      })
      continue
    }
    ids.set(a.name, id)
    named.run(datasetId, id, a.hourlyRate)
  }
  const item = db.prepare('SELECT id FROM items WHERE dataset_id = ? AND ext_id = ?').pluck()
  const assign = db.prepare(
    'INSERT OR IGNORE INTO assignments (annotator_id, dataset_id, item_id) VALUES (?, ?, ?)',
  )
  for (const [name, items] of Object.entries(plan.assignments ?? {})) {
    const id = ids.get(name)
    if (id === undefined) continue
    for (const extId of items) {
      // An item the file's rows did not bring (skipped as bad) has nobody to hold it.
      const itemId = item.get(datasetId, extId) as number | undefined
      if (itemId !== undefined) assign.run(id, datasetId, itemId)
    }
  }
  return warnings
}
