import { z } from 'zod'
import type { GoldDecision, QueueEntry, QueuePage, QueueStatus } from '../../shared/contract/agreement'
import type { Viewer } from '../../shared/contract/viewer'
import { EvidenceSpan, UnitKind } from '../../shared/domain'
import { checkVerdict } from '../../shared/labelSchemas'
import { blindGate, checkAdjudicator, hasSteppedOut } from '../blind'
import type { Db } from '../store/connection'
import { datasetSettings, datasetVisible, getDataset } from '../store/repos/datasets'
import { parseJson } from '../store/repos/rows'
import { UnitsError } from '../units/rows'
import { disputedTargetsOnce } from './disputes'
import { setGold } from './gold'

/*
 * The adjudication queue: targets (current unit versions only) that two or more annotators
 * labelled with different verdicts. A gold row settles a target; it then moves from the open
 * list to the adjudicated one, and stays there so a decision can be reviewed or changed.
 */

interface EntryRow {
  targetId: number
  itemId: number
  extId: string
  question: string | null
  reference: string
  candidateId: number
  variant: string
  candidateText: string
  unitId: number
  kind: string
  unitText: string
  version: number
  goldVerdict: string | null
  goldSource: 'adjudicated' | 'import' | null
  adjudicator: string | null
  goldNote: string | null
  goldAt: string | null
  goldSelf: number | null
}

interface LabelRow {
  targetId: number
  annotatorId: number
  annotator: string
  verdict: string
  evidence: string
  note: string | null
  updatedAt: string
}

const Evidence = z.array(EvidenceSpan)

function goldOf(r: EntryRow): GoldDecision | null {
  if (r.goldVerdict === null || r.goldSource === null || r.goldAt === null) return null
  return {
    verdict: r.goldVerdict,
    source: r.goldSource,
    adjudicator: r.adjudicator,
    note: r.goldNote,
    updatedAt: r.goldAt,
    adjudicatorLabelled: r.goldSelf === 1,
  }
}

export function adjudicationQueue(
  db: Db,
  datasetId: number,
  opts: { status?: QueueStatus; variant?: string; offset?: number; limit?: number; viewer?: Viewer } = {},
): QueuePage {
  const labelSchema = getDataset(db, datasetId).labelSchema
  const all = disputedTargetsOnce(db, labelSchema, datasetId, opts.variant ?? null)
  const status = opts.status ?? 'open'
  // Being in this queue says a target is disputed: while blind, a viewer sees only the disputes
  // on targets they labelled themselves (src/main/blind/).
  const gate = blindGate(db, datasetId, opts.viewer)
  const matching = all.filter((r) => status === 'all' || (status === 'open') === (r.decided === 0))
  const wanted = matching.filter((r) => gate.reveals(r.targetId))
  const adjudicated = all.filter((r) => r.decided === 1).length
  const offset = opts.offset ?? 0
  const ids = wanted.slice(offset, offset + (opts.limit ?? 100)).map((r) => r.targetId)
  return {
    labelSchema,
    open: all.length - adjudicated,
    adjudicated,
    total: wanted.length,
    entries: queueEntries(db, ids),
    hidden: matching.length - wanted.length,
    steppedOut: opts.viewer?.annotatorId ? hasSteppedOut(db, datasetId, opts.viewer.annotatorId) : false,
    allowSelfAdjudication: datasetSettings(db, datasetId).allowSelfAdjudication,
  }
}

/** Queue entries for the given targets, in the order given. */
export function queueEntries(db: Db, targetIds: readonly number[]): QueueEntry[] {
  if (targetIds.length === 0) return []
  const json = JSON.stringify(targetIds)
  const rows = db
    .prepare(
      `SELECT t.id AS targetId, i.id AS itemId, i.ext_id AS extId, i.question, i.reference,
         c.id AS candidateId, c.variant, c.text AS candidateText,
         u.id AS unitId, u.kind, u.text AS unitText, u.version,
         g.verdict AS goldVerdict, g.source AS goldSource, a.name AS adjudicator, g.note AS goldNote,
         g.updated_at AS goldAt, g.adjudicator_labelled AS goldSelf
       FROM targets t JOIN items i ON i.id = t.item_id JOIN candidates c ON c.id = t.candidate_id
       JOIN units u ON u.id = t.unit_id LEFT JOIN gold g ON g.target_id = t.id
       LEFT JOIN annotators a ON a.id = g.adjudicator_id
       WHERE t.id IN (SELECT value FROM json_each(?))`,
    )
    .all(json) as EntryRow[]
  const labels = db
    .prepare(
      `SELECT l.target_id AS targetId, l.annotator_id AS annotatorId, a.name AS annotator, l.verdict,
         l.evidence, l.note, l.updated_at AS updatedAt
       FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.target_id IN (SELECT value FROM json_each(?)) AND l.verdict IS NOT NULL
       ORDER BY a.name`,
    )
    .all(json) as LabelRow[]
  const byTarget = new Map<number, LabelRow[]>()
  for (const l of labels) byTarget.set(l.targetId, [...(byTarget.get(l.targetId) ?? []), l])
  const byId = new Map(rows.map((r) => [r.targetId, r]))
  return targetIds.flatMap((id) => {
    const r = byId.get(id)
    if (!r) return []
    return [
      {
        targetId: r.targetId,
        itemId: r.itemId,
        extId: r.extId,
        question: r.question,
        reference: r.reference,
        candidate: { id: r.candidateId, variant: r.variant, text: r.candidateText },
        unit: { id: r.unitId, kind: UnitKind.parse(r.kind), text: r.unitText, version: r.version },
        labels: (byTarget.get(id) ?? []).map((l) => ({
          annotatorId: l.annotatorId,
          annotator: l.annotator,
          verdict: l.verdict,
          evidence: parseJson(Evidence, l.evidence, 'labels.evidence'),
          note: l.note,
          updatedAt: l.updatedAt,
        })),
        gold: goldOf(r),
      },
    ]
  })
}

/**
 * Records an adjudicator's decision as the target's gold. The verdict must be one the
 * dataset's label schema allows, and the target must belong to a current unit version.
 */
export function adjudicate(
  db: Db,
  input: { targetId: number; verdict: string; adjudicatorId: number; note?: string | null },
): { datasetId: number; entry: QueueEntry } {
  return db.transaction(() => {
    const t = db
      .prepare(
        `SELECT t.dataset_id AS datasetId, u.superseded_by AS sup, u.deleted_at AS del FROM targets t
         JOIN units u ON u.id = t.unit_id WHERE t.id = ?`,
      )
      .get(input.targetId) as { datasetId: number; sup: number | null; del: string | null } | undefined
    if (!t || !datasetVisible(db, t.datasetId))
      throw new UnitsError('not_found', `No target with id ${input.targetId}`)
    if (t.sup !== null || t.del !== null)
      throw new UnitsError(
        'conflict',
        'This unit was edited or deleted since; adjudicate its current version',
      )
    if (!db.prepare('SELECT 1 FROM annotators WHERE id = ?').get(input.adjudicatorId))
      throw new UnitsError('not_found', `No annotator with id ${input.adjudicatorId}`)
    const verdict = input.verdict.trim()
    const problem = checkVerdict(getDataset(db, t.datasetId).labelSchema, verdict)
    if (problem) throw new UnitsError('bad_input', problem)
    const note = input.note?.trim() ? input.note.trim() : null
    const { labelledByAdjudicator } = checkAdjudicator(db, {
      datasetId: t.datasetId,
      targetId: input.targetId,
      adjudicatorId: input.adjudicatorId,
    })
    setGold(db, {
      adjudicatorLabelled: labelledByAdjudicator,
      targetId: input.targetId,
      verdict,
      source: 'adjudicated',
      adjudicatorId: input.adjudicatorId,
      note,
    })
    return { datasetId: t.datasetId, entry: queueEntries(db, [input.targetId])[0]! }
  })()
}
