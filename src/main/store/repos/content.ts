import type { Triplet, UnitKind } from '../../../shared/domain'
import type { Db } from '../connection'
import { now } from './rows'

export interface ItemInput {
  extId: string
  question?: string | null
  reference: string
  metadata?: Record<string, unknown>
}

export interface CandidateInput {
  variant: string
  text: string
  origin?: string
  parentCandidateId?: number | null
  metadata?: Record<string, unknown>
}

export interface UnitInput {
  kind: UnitKind
  text: string
  /** Required for triplet, sentence and whole units: the candidate the unit comes from. */
  candidateId?: number | null
  triplet?: Triplet | null
  origin?: string
  position?: number
}

/**
 * Prepared writers for items, candidates and units. Targets follow from the units: a fact is
 * a target in every candidate of its item, any other unit in its own candidate. Callers wrap
 * a batch in one transaction (imports are atomic).
 */
export class ContentWriter {
  private readonly insItem
  private readonly insCandidate
  private readonly insUnit
  private readonly setLineage
  private readonly factTargets
  private readonly candidateTargets
  private readonly ownTarget
  private readonly nextPosition
  private readonly itemPosition
  private readonly datasetOfItem

  constructor(private readonly db: Db) {
    this.insItem = db.prepare(
      'INSERT INTO items (dataset_id, ext_id, position, question, reference, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    )
    this.insCandidate = db.prepare(
      'INSERT INTO candidates (item_id, variant, text, origin, parent_candidate_id, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    )
    this.insUnit = db.prepare(
      `INSERT INTO units (item_id, candidate_id, kind, position, text, triplet, origin, version, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    )
    this.setLineage = db.prepare('UPDATE units SET lineage_id = id WHERE id = ?')
    // In the answers' order (the Annotate view's tabs): the queue serves targets by id, and
    // without the ORDER BY SQLite reads the candidates through their (item, variant) index, so a
    // fact's poor_answer came before its ungrounded_answer.
    this.factTargets = db.prepare(
      `INSERT OR IGNORE INTO targets (dataset_id, item_id, unit_id, candidate_id)
       SELECT i.dataset_id, i.id, ?, c.id FROM candidates c JOIN items i ON i.id = c.item_id WHERE c.item_id = ?
       ORDER BY c.id`,
    )
    this.candidateTargets = db.prepare(
      `INSERT OR IGNORE INTO targets (dataset_id, item_id, unit_id, candidate_id)
       SELECT i.dataset_id, i.id, u.id, ? FROM units u JOIN items i ON i.id = u.item_id
       WHERE u.item_id = ? AND u.kind = 'fact' AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
    )
    this.ownTarget = db.prepare(
      'INSERT OR IGNORE INTO targets (dataset_id, item_id, unit_id, candidate_id) VALUES (?, ?, ?, ?)',
    )
    this.nextPosition = db.prepare(
      'SELECT COALESCE(MAX(position), -1) + 1 AS p FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?',
    )
    this.itemPosition = db.prepare(
      'SELECT COALESCE(MAX(position), -1) + 1 AS p FROM items WHERE dataset_id = ?',
    )
    this.datasetOfItem = db.prepare('SELECT dataset_id FROM items WHERE id = ?')
  }

  nextItemPosition(datasetId: number): number {
    return (this.itemPosition.get(datasetId) as { p: number }).p
  }

  insertItem(datasetId: number, item: ItemInput, position: number): number {
    const info = this.insItem.run(
      datasetId,
      item.extId,
      position,
      item.question ?? null,
      item.reference,
      JSON.stringify(item.metadata ?? {}),
    )
    return Number(info.lastInsertRowid)
  }

  insertCandidate(itemId: number, c: CandidateInput): number {
    const info = this.insCandidate.run(
      itemId,
      c.variant,
      c.text,
      c.origin ?? 'import',
      c.parentCandidateId ?? null,
      JSON.stringify(c.metadata ?? {}),
    )
    const id = Number(info.lastInsertRowid)
    this.candidateTargets.run(id, itemId)
    return id
  }

  insertUnit(itemId: number, u: UnitInput): number {
    if (u.kind !== 'fact' && u.candidateId == null)
      throw new Error(`A ${u.kind} unit needs the candidate it comes from`)
    const candidateId = u.kind === 'fact' ? null : (u.candidateId ?? null)
    const position = u.position ?? (this.nextPosition.get(itemId, u.kind, candidateId) as { p: number }).p
    const info = this.insUnit.run(
      itemId,
      candidateId,
      u.kind,
      position,
      u.text,
      u.triplet ? JSON.stringify(u.triplet) : null,
      u.origin ?? 'import',
      now(),
    )
    const id = Number(info.lastInsertRowid)
    this.setLineage.run(id)
    this.addTargets(id, itemId, u.kind, candidateId)
    return id
  }

  /** Targets for a unit row (also used when a new version of a unit is made). */
  addTargets(unitId: number, itemId: number, kind: UnitKind, candidateId: number | null): void {
    if (kind === 'fact') this.factTargets.run(unitId, itemId)
    else {
      const { dataset_id } = this.datasetOfItem.get(itemId) as { dataset_id: number }
      this.ownTarget.run(dataset_id, itemId, unitId, candidateId)
    }
  }

  targetId(unitId: number, candidateId: number): number | null {
    const row = this.db
      .prepare('SELECT id FROM targets WHERE unit_id = ? AND candidate_id = ?')
      .get(unitId, candidateId) as { id: number } | undefined
    return row?.id ?? null
  }
}
