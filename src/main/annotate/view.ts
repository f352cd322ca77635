// annotate/ owns what the Annotate and Items views read: one item with its targets, my labels,
// others' labels and judge verdicts (view.ts), dataset lists and item pages (datasets.ts), search
// and uploaded files (upload.ts). Saving a label is labels/ (labels/save.ts).
import type { AnnotateTarget, AnnotateView } from '../../shared/contract/annotate'
import { Triplet, type UnitKind } from '../../shared/domain'
import { ServiceError } from '../app/errors'
import { blindGate, hasSteppedOut } from '../blind'
import { goldTargetsAmong } from '../labels/gold'
import { labelsForTargets, nextUnlabelledTarget } from '../labels/labels'
import { requirePerson } from '../labels/save'
import { firstAssignedItem, nextUnderPlan, settledForMe } from '../projects/queue'
import type { Db } from '../store/connection'
import { datasetVisible, getDataset } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { judgeVerdictsOfTargets, type TargetJudgeVerdict } from '../verdicts/reads'
import { itemWalk } from './itemWalk'

export interface OpenInput {
  datasetId: number
  annotatorId: number
  targetId?: number
  itemId?: number
  blind: boolean
}

interface TargetRow {
  targetId: number
  unitId: number
  candidateId: number
  kind: UnitKind
  text: string
  triplet: string | null
}

function itemOfTarget(db: Db, datasetId: number, targetId: number): number | null {
  const row = db
    .prepare('SELECT item_id AS id FROM targets WHERE id = ? AND dataset_id = ?')
    .get(targetId, datasetId) as { id: number } | undefined
  return row?.id ?? null
}

/** With nothing asked for, the view opens on my next target in the queue, focused. */
function withQueueTarget(db: Db, input: OpenInput): OpenInput {
  if (input.targetId !== undefined || input.itemId !== undefined) return input
  const queued = nextForMe(db, input.datasetId, input.annotatorId, undefined, true)
  if (queued !== null) return { ...input, targetId: queued }
  const mine = firstAssignedItem(db, input.datasetId, input.annotatorId)
  return mine === null ? input : { ...input, itemId: mine }
}

function resolveItem(db: Db, input: OpenInput): number {
  if (input.targetId !== undefined) {
    const id = itemOfTarget(db, input.datasetId, input.targetId)
    if (id === null) throw new ServiceError('not_found', `No target ${input.targetId} in this dataset`)
    return id
  }
  if (input.itemId !== undefined) {
    const row = db
      .prepare('SELECT id FROM items WHERE id = ? AND dataset_id = ?')
      .get(input.itemId, input.datasetId)
    if (!row) throw new ServiceError('not_found', `No item ${input.itemId} in this dataset`)
    return input.itemId
  }
  const next = nextForMe(db, input.datasetId, input.annotatorId, undefined, true)
  if (next !== null) return itemOfTarget(db, input.datasetId, next)!
  const first = db
    .prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY position LIMIT 1')
    .get(input.datasetId) as { id: number } | undefined
  if (!first) throw new ServiceError('not_found', 'This dataset has no items yet')
  return first.id
}

/** The dataset's plan decides the queue when it has one (projects/queue.ts); else reading order. */
function nextForMe(
  db: Db,
  datasetId: number,
  annotatorId: number,
  after?: number,
  opening = false,
): number | null {
  const planned = nextUnderPlan(db, datasetId, annotatorId, after, opening)
  return planned === undefined ? nextUnlabelledTarget(db, datasetId, annotatorId, after) : planned
}

/**
 * From the run's own frozen columns, not the judge config's current name: a config renamed or
 * edited after the run does not relabel what the run said.
 */
function judgeName(v: TargetJudgeVerdict): string {
  return v.provider === 'imported' ? `${v.method} (imported)` : `${v.method} · ${v.model}`
}

/**
 * Everything the annotate view shows for one item. Blind mode is enforced here, not only in
 * the UI (src/main/blind/): judges' and other annotators' verdicts on a target, and whether it is
 * disputed, stay out of the reply until this annotator has a current label on that target.
 */
export function openAnnotateView(db: Db, input: OpenInput): AnnotateView {
  let dataset: ReturnType<typeof getDataset>
  try {
    dataset = getDataset(db, input.datasetId)
  } catch {
    throw new ServiceError('not_found', `No dataset with id ${input.datasetId}`)
  }
  // A source's labels are the dataset's reference: opening Annotate as one would only end in
  // refused saves, so it is refused here, before a screen of work is shown.
  requirePerson(db, input.annotatorId)
  const which = withQueueTarget(db, input)
  const itemId = resolveItem(db, which)
  const item = db
    .prepare('SELECT id, ext_id AS extId, position, question, reference FROM items WHERE id = ?')
    .get(itemId) as AnnotateView['item']
  const walk = itemWalk(db, input.datasetId, input.annotatorId, item)
  const candidates = db
    .prepare('SELECT id, variant, text FROM candidates WHERE item_id = ? ORDER BY id')
    .all(itemId) as AnnotateView['candidates']

  const rows = db
    .prepare(
      `SELECT t.id AS targetId, t.unit_id AS unitId, t.candidate_id AS candidateId, u.kind, u.text, u.triplet
       FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND t.item_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       ORDER BY t.candidate_id, u.kind = 'fact' DESC, u.position, t.id`,
    )
    .all(input.datasetId, itemId) as TargetRow[]
  const ids = rows.map((r) => r.targetId)
  const settled = settledForMe(db, input.datasetId, input.annotatorId, ids)
  const labels = labelsForTargets(db, ids)
  const names = new Map(
    (db.prepare('SELECT id, name FROM annotators').all() as { id: number; name: string }[]).map((a) => [
      a.id,
      a.name,
    ]),
  )
  const gold = goldTargetsAmong(db, ids)
  const verdicts = judgeVerdictsOfTargets(db, ids)

  const gate = blindGate(db, input.datasetId, { annotatorId: input.annotatorId, blind: input.blind }, ids)
  let hiddenJudgeVerdicts = 0
  const targets: AnnotateTarget[] = rows.map((r) => {
    const mine = labels.find((l) => l.targetId === r.targetId && l.annotatorId === input.annotatorId) ?? null
    const otherLabels = labels.filter(
      (l) => l.targetId === r.targetId && l.annotatorId !== input.annotatorId && l.verdict !== null,
    )
    const distinct = new Set(
      labels.filter((l) => l.targetId === r.targetId && l.verdict !== null).map((l) => l.verdict),
    )
    const judges = verdicts
      .filter((v) => v.targetId === r.targetId)
      .map((v) => ({
        runId: v.runId,
        judge: judgeName(v),
        status: v.status,
        verdict: v.verdict,
        reason: v.reason,
        citation: v.citation,
      }))
    const hidden = !gate.reveals(r.targetId)
    if (hidden) hiddenJudgeVerdicts += judges.length
    return {
      targetId: r.targetId,
      unitId: r.unitId,
      candidateId: r.candidateId,
      kind: r.kind,
      text: r.text,
      triplet: r.triplet === null ? null : parseJson(Triplet, r.triplet, 'units.triplet'),
      against: r.kind === 'fact' ? 'candidate' : 'reference',
      mine: mine && {
        verdict: mine.verdict,
        evidence: mine.evidence,
        note: mine.note,
        updatedAt: mine.updatedAt,
      },
      others: hidden
        ? null
        : otherLabels.map((l) => ({ annotator: names.get(l.annotatorId) ?? '?', verdict: l.verdict! })),
      judges: hidden ? null : judges,
      disputed: !hidden && !gold.has(r.targetId) && distinct.size > 1,
      ...(settled.has(r.targetId) ? { settled: true } : {}),
    }
  })
  const asked = which.targetId !== undefined && targets.some((t) => t.targetId === which.targetId)
  const focusTargetId = asked
    ? which.targetId!
    : ((targets.find((t) => (t.mine === null || t.mine.verdict === null) && !t.settled) ?? targets[0])
        ?.targetId ?? null)
  return {
    dataset: { id: dataset.id, name: dataset.name, labelSchema: dataset.labelSchema },
    item,
    ...walk,
    candidates,
    targets,
    focusTargetId,
    hiddenJudgeVerdicts,
    steppedOut: hasSteppedOut(db, input.datasetId, input.annotatorId),
  }
}

export function nextTarget(
  db: Db,
  input: { datasetId: number; annotatorId: number; afterTargetId?: number },
): { targetId: number | null; itemId: number | null } {
  if (!datasetVisible(db, input.datasetId))
    throw new ServiceError('not_found', `No dataset with id ${input.datasetId}`)
  requirePerson(db, input.annotatorId)
  const targetId = nextForMe(db, input.datasetId, input.annotatorId, input.afterTargetId)
  return { targetId, itemId: targetId === null ? null : itemOfTarget(db, input.datasetId, targetId) }
}
