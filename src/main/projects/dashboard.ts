import type { AnnotatorFigures, Dashboard } from '../../shared/contract/projects'
import { guidelinesReadBy } from '../guidelines/guidelines'
import { labelsPlacedSince } from '../labels/projectReads'
import { cohenKappa } from '../metrics/stats/agreement'
import type { Db } from '../store/connection'
import { accuracyOf, controlCount } from './controls'
import { dashboardLabels } from './dashboardLabels'
import type { Tally } from './dashboardTally'
import { keptUntilChange } from './keptUntilChange'
import { laptopShare } from './laptopShare'
import { finishAtPace, PACE_WINDOW_DAYS } from './pace'
import { getPlan } from './plan'
import { openShare, progressByVariant } from './variantProgress'

/**
 * Everything the lead's dashboard shows for one dataset: the plan, progress towards k overall
 * and per variant, each annotator's work, agreement, controls, time and cost, the packages, and
 * the hours left at the current pace. Controls are kept out of progress and agreement, and so
 * are a dataset's own reference labels (a source is not a person); `notCounted` says how many
 * labels each rule left out, so the numbers reconcile with the other screens. The label figures
 * come from one pass over the stored target and label blocks, kept until the workspace changes
 * (dashboardLabels.ts).
 */
export function projectDashboard(db: Db, datasetId: number, now = new Date()): Dashboard {
  // All but the pace depends on the data alone: kept until it changes, the pace read each time.
  const { figures, remaining } = keptUntilChange(db, `projects.dashboard:${datasetId}`, () =>
    dashboardFigures(db, datasetId),
  )
  return { ...figures, ...paceOf(db, datasetId, remaining, now) }
}

function dashboardFigures(db: Db, datasetId: number) {
  const plan = getPlan(db, datasetId)
  // Without a plan every annotator labels every target: "done" means everyone named has.
  const k = plan.k
  const { tally, pair, pastK } = dashboardLabels(db, datasetId, plan)
  const totals = { targets: tally.targets, complete: tally.complete, towards: tally.towards }
  const byVariant = tally.byVariant
  const names = new Map(
    (db.prepare('SELECT id, name FROM annotators').all() as { id: number; name: string }[]).map((a) => [
      a.id,
      a.name,
    ]),
  )
  const people = new Set<number>(tally.people.keys())
  for (const a of plan.annotators) people.add(a.annotatorId)
  const controls = accuracyOf(tally.controlAnswers)
  for (const id of controls.keys()) people.add(id)
  const read = guidelinesReadBy(db, datasetId)
  const rateOf = new Map(plan.annotators.map((a) => [a.annotatorId, a.hourlyRate]))
  const grid = progressByVariant(
    { ...plan, annotators: plan.annotators.length || people.size },
    byVariant,
    tally,
    [...people],
  )

  const annotators: AnnotatorFigures[] = [...people]
    .map((id) => {
      const mine = tally.people.get(id)
      const activeSeconds = mine?.activeSeconds ?? 0
      const timedLabels = mine?.timedLabels ?? 0
      const rate = rateOf.get(id) ?? plan.hourlyRate
      const c = controls.get(id)
      const labels = mine?.labels ?? 0
      return {
        annotatorId: id,
        name: names.get(id) ?? `#${id}`,
        labels,
        overK: pastK.get(id) ?? 0,
        activeSeconds,
        timedLabels,
        medianSeconds: mine?.medianSeconds ?? null,
        assigned:
          plan.policy === 'fixed'
            ? (tally.assignedTargets.get(id) ?? 0)
            : plan.planned
              ? openShare(k, totals.targets, plan.annotators.length || people.size)
              : null,
        // Labels given before the plan, or on items someone else holds, are not progress on it.
        assignedDone: plan.policy === 'fixed' ? (mine?.inAssignment ?? 0) : labels,
        controls: c ?? { answered: 0, correct: 0, accuracy: null, interval: null },
        guidelinesRead: read.get(id) ?? null,
        kappaWithGold: !mine || mine.mine.length === 0 ? null : cohenKappa(mine.mine, mine.gold),
        goldShared: mine?.mine.length ?? 0,
        hourlyRate: rate ?? null,
        // Without any recorded time (CLI, file) a cost of 0 would read as "free": it is unknown.
        cost: rate === null || rate === undefined || timedLabels === 0 ? null : (activeSeconds / 3600) * rate,
        byVariant: grid.get(id) ?? [],
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))

  const pairwiseKappa: Dashboard['pairwiseKappa'] = []
  for (let i = 0; i < annotators.length; i++)
    for (let j = i + 1; j < annotators.length; j++) {
      const a = annotators[i]!
      const b = annotators[j]!
      pairwiseKappa.push({ a: a.name, b: b.name, ...pair(a, b) })
    }

  const activeSeconds = annotators.reduce((s, a) => s + a.activeSeconds, 0)
  // Only labels with recorded time say anything about the pace: an estimate from none is no estimate.
  const pace = tally.medianSeconds
  const wanted = totals.targets * k
  const controlsMarked = controlCount(db, datasetId)
  const laptop = laptopShare(db, plan, annotators, controlsMarked)
  // On a laptop the time left and the finish date are the package annotator's, over her share.
  const remaining = laptop ? laptop.targets - laptop.done : wanted - totals.towards
  const packages = db
    .prepare(
      `SELECT p.id, a.name AS annotator, p.targets, p.created_at AS createdAt, p.returned_at AS returnedAt,
         p.labels_back AS labelsBack FROM packages p JOIN annotators a ON a.id = p.annotator_id
       WHERE p.dataset_id = ? ORDER BY p.created_at, p.rowid`,
    )
    .all(datasetId) as PackageFacts[]
  const figures: Omit<Dashboard, keyof ReturnType<typeof paceOf>> = {
    plan,
    targets: totals.targets,
    complete: totals.complete,
    labelsTowardsK: totals.towards,
    labelsWanted: wanted,
    byVariant,
    annotators,
    pairwiseKappa,
    controls: { count: controlsMarked },
    packages: withVersions(packages),
    activeHours: activeSeconds / 3600,
    timedLabels: annotators.reduce((s, a) => s + a.timedLabels, 0),
    labels: annotators.reduce((s, a) => s + a.labels, 0),
    notCounted: notCounted(db, tally, names, annotators),
    projectedHours: pace === null ? null : (remaining * pace) / 3600,
    ...(laptop ? { laptop } : {}),
  }
  return { figures, remaining }
}

/**
 * Per person, the labels the figures leave out by rule (controls, older wordings, deleted units,
 * outside a fixed assignment), and the reference labels of each source, so every screen's count
 * of a person can be traced to this one.
 */
function notCounted(
  db: Db,
  tally: Tally,
  names: Map<number, string>,
  annotators: readonly AnnotatorFigures[],
): Dashboard['notCounted'] {
  const older = olderWordingTargets(db, [...new Set(tally.notCurrent.map(([t]) => t))])
  const uncounted = new Map<number, { controls: number; olderWordings: number; deletedUnits: number }>()
  const of = (id: number) => {
    let u = uncounted.get(id)
    if (!u) {
      u = { controls: 0, olderWordings: 0, deletedUnits: 0 }
      uncounted.set(id, u)
    }
    return u
  }
  for (const [id, n] of tally.controls) of(id).controls = n
  for (const [target, id] of tally.notCurrent)
    if (older.has(target)) of(id).olderWordings++
    else of(id).deletedUnits++
  const figures = new Map(annotators.map((a) => [a.annotatorId, a]))
  // Someone whose every label is on a control or an older wording has no row above, but is listed here.
  const ids = [...new Set([...annotators.map((a) => a.annotatorId), ...uncounted.keys()])]
  const people = ids
    .map((id) => {
      const u = uncounted.get(id)
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
  const sources = [...tally.sources]
    .map(([id, labels]) => ({ name: names.get(id) ?? `#${id}`, labels }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { people, sources }
}

/** Of these targets (on units no longer current), those whose unit has a newer wording (else it was deleted). */
function olderWordingTargets(db: Db, targets: readonly number[]): Set<number> {
  if (targets.length === 0) return new Set()
  return new Set(
    db
      .prepare(
        `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
         WHERE t.id IN (SELECT value FROM json_each(?)) AND u.superseded_by IS NOT NULL`,
      )
      .pluck()
      .all(JSON.stringify(targets)) as number[],
  )
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
