import { guidelinesReadBy } from '../../../src/main/guidelines/guidelines'
import { cohenKappa } from '../../../src/main/metrics/stats/agreement'
import { controlAccuracy, controlCount } from '../../../src/main/projects/controls'
import { finishAtPace, PACE_WINDOW_DAYS } from '../../../src/main/projects/pace'
import { getPlan } from '../../../src/main/projects/plan'
import { median } from '../../../src/main/projects/wilson'
import type { Db } from '../../../src/main/store/connection'
import type { AnnotatorFigures, Dashboard } from '../../../src/shared/contract/projects'
import {
  adjudicatedGold,
  labelledInAssignment,
  labelsPlacedSince,
  type RankedLabel,
  rankedLabels,
  sourceLabelCounts,
  uncountedLabels,
} from './projectReadsRows'
import { openShare, progressByVariant } from './variantProgressRows'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'
const WORK = `FROM targets t JOIN units u ON u.id = t.unit_id
  WHERE t.dataset_id = @ds AND ${CURRENT} AND NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)`

/**
 * Everything the lead's dashboard shows for one dataset: the plan, progress towards k overall
 * and per variant, each annotator's work, agreement, controls, time and cost, the packages, and
 * the hours left at the current pace. Controls are kept out of progress and agreement, and so
 * are a dataset's own reference labels (a source is not a person); `notCounted` says how many
 * labels each rule left out, so the numbers reconcile with the other screens.
 */
export function projectDashboard(db: Db, datasetId: number, now = new Date()): Dashboard {
  const plan = getPlan(db, datasetId)
  // Without a plan every annotator labels every target: "done" means everyone named has.
  const k = plan.k
  const totals = db
    .prepare(
      `SELECT COUNT(*) AS targets, COALESCE(SUM(t.labels_n >= @k), 0) AS complete,
         COALESCE(SUM(MIN(t.labels_n, @k)), 0) AS towards ${WORK}`,
    )
    .get({ ds: datasetId, k }) as { targets: number; complete: number; towards: number }
  const byVariant = db
    .prepare(
      `SELECT c.variant, COUNT(*) AS targets, COALESCE(SUM(t.labels_n >= @k), 0) AS complete
       FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
       WHERE t.dataset_id = @ds AND ${CURRENT} AND NOT EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id)
       GROUP BY c.variant ORDER BY MIN(c.id)`,
    )
    .all({ ds: datasetId, k }) as Dashboard['byVariant']

  // A label ranked past k on its target went on by hand.
  const labels = rankedLabels(db, datasetId)
  const names = new Map(
    (db.prepare('SELECT id, name FROM annotators').all() as { id: number; name: string }[]).map((a) => [
      a.id,
      a.name,
    ]),
  )
  const people = new Set<number>(labels.map((l) => l.annotatorId))
  for (const a of plan.annotators) people.add(a.annotatorId)
  const controls = controlAccuracy(db, datasetId)
  for (const id of controls.keys()) people.add(id)
  const read = guidelinesReadBy(db, datasetId)
  const gold = adjudicatedGold(db, datasetId)
  const byPerson = new Map<number, RankedLabel[]>()
  for (const l of labels) {
    const list = byPerson.get(l.annotatorId)
    if (list) list.push(l)
    else byPerson.set(l.annotatorId, [l])
  }
  const assignedTargets = assignedCounts(db, datasetId)
  const assignedLabelled = plan.policy === 'fixed' ? labelledInAssignment(db, datasetId) : null
  const rateOf = new Map(plan.annotators.map((a) => [a.annotatorId, a.hourlyRate]))
  const grid = progressByVariant(
    db,
    datasetId,
    { ...plan, annotators: plan.annotators.length || people.size },
    byVariant,
    labels,
    [...people],
  )

  const annotators: AnnotatorFigures[] = [...people]
    .map((id) => {
      const mine = byPerson.get(id) ?? []
      const activeSeconds = mine.reduce((s, l) => s + l.seconds, 0)
      const timed = mine.filter((l) => l.seconds > 0).map((l) => l.seconds)
      const withGold = mine.filter((l) => gold.has(l.targetId))
      const rate = rateOf.get(id) ?? plan.hourlyRate
      const c = controls.get(id)
      return {
        annotatorId: id,
        name: names.get(id) ?? `#${id}`,
        labels: mine.length,
        // Without a plan there is no k (everyone labels everything), so no label is past it.
        overK: plan.planned ? mine.filter((l) => l.rank > k).length : 0,
        activeSeconds,
        timedLabels: timed.length,
        medianSeconds: median(timed),
        assigned:
          plan.policy === 'fixed'
            ? (assignedTargets.get(id) ?? 0)
            : plan.planned
              ? openShare(k, totals.targets, plan.annotators.length || people.size)
              : null,
        // Labels given before the plan, or on items someone else holds, are not progress on it.
        assignedDone: assignedLabelled ? (assignedLabelled.get(id) ?? 0) : mine.length,
        controls: c ?? { answered: 0, correct: 0, accuracy: null, interval: null },
        guidelinesRead: read.get(id) ?? null,
        kappaWithGold:
          withGold.length === 0
            ? null
            : cohenKappa(
                withGold.map((l) => l.verdict),
                withGold.map((l) => gold.get(l.targetId)!),
              ),
        goldShared: withGold.length,
        hourlyRate: rate ?? null,
        // Without any recorded time (CLI, file) a cost of 0 would read as "free": it is unknown.
        cost:
          rate === null || rate === undefined || timed.length === 0 ? null : (activeSeconds / 3600) * rate,
        byVariant: grid.get(id) ?? [],
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))

  const pairwiseKappa: Dashboard['pairwiseKappa'] = []
  const ids = annotators.map((a) => a.annotatorId)
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const a = new Map((byPerson.get(ids[i]!) ?? []).map((l) => [l.targetId, l.verdict]))
      const shared = (byPerson.get(ids[j]!) ?? []).filter((l) => a.has(l.targetId))
      pairwiseKappa.push({
        a: annotators[i]!.name,
        b: annotators[j]!.name,
        n: shared.length,
        kappa:
          shared.length === 0
            ? null
            : cohenKappa(
                shared.map((l) => a.get(l.targetId)!),
                shared.map((l) => l.verdict),
              ),
      })
    }

  const activeSeconds = annotators.reduce((s, a) => s + a.activeSeconds, 0)
  // Only labels with recorded time say anything about the pace: an estimate from none is no estimate.
  const pace = median(labels.filter((l) => l.seconds > 0).map((l) => l.seconds))
  const wanted = totals.targets * k
  const packages = db
    .prepare(
      `SELECT p.id, a.name AS annotator, p.targets, p.created_at AS createdAt, p.returned_at AS returnedAt,
         p.labels_back AS labelsBack FROM packages p JOIN annotators a ON a.id = p.annotator_id
       WHERE p.dataset_id = ? ORDER BY p.created_at, p.rowid`,
    )
    .all(datasetId) as PackageFacts[]
  return {
    plan,
    targets: totals.targets,
    complete: totals.complete,
    labelsTowardsK: totals.towards,
    labelsWanted: wanted,
    byVariant,
    annotators,
    pairwiseKappa,
    controls: { count: controlCount(db, datasetId) },
    packages: withVersions(packages),
    activeHours: activeSeconds / 3600,
    timedLabels: annotators.reduce((s, a) => s + a.timedLabels, 0),
    labels: labels.length,
    notCounted: notCounted(db, datasetId, names, annotators),
    projectedHours: pace === null ? null : ((wanted - totals.towards) * pace) / 3600,
    ...paceOf(db, datasetId, wanted - totals.towards, now),
  }
}

/**
 * Per person, the labels the figures leave out by rule (controls, older wordings, deleted units,
 * outside a fixed assignment), and the reference labels of each source, so every screen's count
 * of a person can be traced to this one.
 */
function notCounted(
  db: Db,
  datasetId: number,
  names: Map<number, string>,
  annotators: readonly AnnotatorFigures[],
): Dashboard['notCounted'] {
  const uncounted = uncountedLabels(db, datasetId)
  const figures = new Map(annotators.map((a) => [a.annotatorId, a]))
  // Someone whose every label is on a control or an older wording has no row above, but is listed here.
  const ids = [...new Set([...annotators.map((a) => a.annotatorId), ...uncounted.map((u) => u.annotatorId)])]
  const byId = new Map(uncounted.map((u) => [u.annotatorId, u]))
  const people = ids
    .map((id) => {
      const u = byId.get(id)
      const a = figures.get(id)
      return {
        name: names.get(id) ?? `#${id}`,
        controls: u?.controls ?? 0,
        olderWordings: u?.olderWordings ?? 0,
        deletedUnits: u?.deletedUnits ?? 0,
        outsideAssignment: a && a.assigned !== null ? Math.max(0, a.labels - a.assignedDone) : 0,
      }
    })
    .filter((p) => p.controls + p.olderWordings + p.deletedUnits + p.outsideAssignment > 0)
    .sort((a, b) => a.name.localeCompare(b.name))
  const sources = sourceLabelCounts(db, datasetId).map((s) => ({
    name: names.get(s.annotatorId) ?? `#${s.annotatorId}`,
    labels: s.labels,
  }))
  return { people, sources }
}

/** Targets (current, not controls) in each annotator's assigned items. */
function assignedCounts(db: Db, datasetId: number): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT a.annotator_id AS id, COUNT(*) AS n FROM assignments a JOIN targets t ON t.item_id = a.item_id
       JOIN units u ON u.id = t.unit_id
       WHERE a.dataset_id = ? AND ${CURRENT} AND NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)
       GROUP BY a.annotator_id`,
    )
    .all(datasetId) as { id: number; n: number }[]
  return new Map(rows.map((r) => [r.id, r.n]))
}

const DAY_MS = 86_400_000

/** The calendar side of the pace: one rate, over the days the last week's labelling spans. */
function paceOf(db: Db, datasetId: number, remaining: number, now: Date) {
  const since = new Date(now.getTime() - PACE_WINDOW_DAYS * DAY_MS).toISOString()
  return finishAtPace(labelsPlacedSince(db, datasetId, since), remaining, now)
}

type PackageFacts = Omit<Dashboard['packages'][number], 'version' | 'replacedBy'>

/**
 * Numbers each person's packages in the order they were handed out and marks all but the newest
 * as replaced: a laptop refreshed from v2 will never send v1's labels back on their own.
 */
export function withVersions(rows: readonly PackageFacts[]): Dashboard['packages'] {
  const count = new Map<string, number>()
  for (const r of rows) count.set(r.annotator, (count.get(r.annotator) ?? 0) + 1)
  const seen = new Map<string, number>()
  return rows.map((r) => {
    const version = (seen.get(r.annotator) ?? 0) + 1
    seen.set(r.annotator, version)
    const latest = count.get(r.annotator)!
    return { ...r, version, replacedBy: version === latest ? null : latest }
  })
}
