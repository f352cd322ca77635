// units/ owns units and their targets: editing with versions, splitting and merging, the sentence
// splitter and triplets, and the per-item unit lists (labels and verdicts stay in their own rooms).
import type { Triplet, Unit, UnitKind } from '../../shared/domain'
import type { Db } from '../store/connection'
import { ContentWriter } from '../store/repos/content'
import { now } from '../store/repos/rows'
import { cleanText, currentUnitRow, toUnit, type UnitRow, UnitsError, unitIsLabelled, unitRow } from './rows'
import {
  editedContent,
  notATriplet,
  TRIPLET_MERGE_REFUSED,
  TRIPLET_SPLIT_NEEDS_PARTS,
  tripletContent,
  type UnitContent,
} from './triplets'

/** Units a person makes or changes by hand carry this origin. */
export const PERSON_ORIGIN = 'person'

const writers = new WeakMap<Db, ContentWriter>()

function writerFor(db: Db): ContentWriter {
  let w = writers.get(db)
  if (!w) {
    w = new ContentWriter(db)
    writers.set(db, w)
  }
  return w
}

export interface EditResult {
  unit: Unit
  /** True when the old text carried labels, so a new version was made instead of a rewrite. */
  versioned: boolean
}

/** Position of the next current unit in the same list, if any (positions are REAL, so new units fit between). */
function nextPosition(db: Db, row: UnitRow): number | null {
  const r = db
    .prepare(
      `SELECT MIN(position) AS p FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?
       AND superseded_by IS NULL AND deleted_at IS NULL AND position > ?`,
    )
    .get(row.item_id, row.kind, row.candidate_id, row.position) as { p: number | null }
  return r.p
}

function positionsAfter(db: Db, row: UnitRow, count: number): number[] {
  const upper = nextPosition(db, row) ?? row.position + 1
  const step = (upper - row.position) / (count + 1)
  return Array.from({ length: count }, (_, i) => row.position + step * (i + 1))
}

/**
 * Whether a work package of the unit's dataset has gone out: a laptop may then hold (and have
 * labelled) this wording, so it is kept as an earlier version the next package names in `was`;
 * rewritten in place, the laptop could not tell the new wording from an added unit.
 */
function handedOut(db: Db, itemId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM packages p JOIN items i ON i.dataset_id = p.dataset_id WHERE i.id = ? LIMIT 1')
      .get(itemId) !== undefined
  )
}

function editRow(db: Db, row: UnitRow, content: UnitContent): EditResult {
  const { text } = content
  const tripletJson = content.triplet === null ? null : JSON.stringify(content.triplet)
  if (text === row.text && tripletJson === row.triplet) return { unit: toUnit(row), versioned: false }
  if (!unitIsLabelled(db, row.id) && !handedOut(db, row.item_id)) {
    // The first wording is kept: a bundle names a unit by the wording its version chain began with.
    db.prepare(
      `UPDATE units SET text = @text, triplet = @triplet,
         origin_text = CASE WHEN text = @text THEN origin_text ELSE COALESCE(origin_text, text) END
       WHERE id = @id`,
    ).run({ text, triplet: tripletJson, id: row.id })
    return { unit: toUnit(unitRow(db, row.id)), versioned: false }
  }
  const lineage = row.lineage_id ?? row.id
  const { v } = db.prepare('SELECT MAX(version) AS v FROM units WHERE lineage_id = ?').get(lineage) as {
    v: number | null
  }
  const info = db
    .prepare(
      `INSERT INTO units (item_id, candidate_id, kind, position, text, triplet, origin, version, lineage_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.item_id,
      row.candidate_id,
      row.kind,
      row.position,
      text,
      tripletJson,
      PERSON_ORIGIN,
      Math.max(v ?? row.version, row.version) + 1,
      lineage,
      now(),
    )
  const id = Number(info.lastInsertRowid)
  db.prepare('UPDATE units SET superseded_by = ? WHERE id = ?').run(id, row.id)
  writerFor(db).addTargets(id, row.item_id, row.kind as UnitKind, row.candidate_id)
  return { unit: toUnit(unitRow(db, id)), versioned: true }
}

/**
 * Changes a unit's text, or a triplet's parts (its text then follows from them). A unit nobody
 * has labelled or judged, of a dataset no package has carried out, is updated in place; otherwise a new version is made (same lineage
 * and place in the list) and the old row, with its labels, is kept as it was. Nothing changes
 * when the input is refused.
 */
export function editUnit(
  db: Db,
  unitId: number,
  text: string | undefined,
  triplet?: readonly string[] | null,
): EditResult {
  return db.transaction(() => {
    const row = currentUnitRow(db, unitId)
    return editRow(db, row, editedContent(toUnit(row), text, triplet))
  })()
}

export interface AddUnitInput {
  itemId: number
  kind: UnitKind
  /** Not needed for a triplet given with its parts: its text follows from them. */
  text?: string | undefined
  /** The candidate a triplet, sentence or whole unit comes from; ignored for facts. */
  candidateId?: number | null
  triplet?: readonly string[] | null
  /** Place the new unit right after this one; null puts it first; absent appends it. */
  afterUnitId?: number | null
}

export function addUnit(db: Db, input: AddUnitInput): Unit {
  return db.transaction(() => {
    let text: string
    let parts: Triplet | null = null
    if (input.triplet) {
      if (input.kind !== 'triplet') throw notATriplet(input.kind)
      ;({ text, triplet: parts } = tripletContent(input.triplet))
    } else text = cleanText(input.text ?? '')
    const item = db.prepare('SELECT id FROM items WHERE id = ?').get(input.itemId)
    if (!item) throw new UnitsError('not_found', `No item with id ${input.itemId}`)
    const candidateId = input.kind === 'fact' ? null : (input.candidateId ?? null)
    if (input.kind !== 'fact') {
      if (candidateId === null)
        throw new UnitsError('bad_input', `A ${input.kind} unit needs the candidate it comes from`)
      const c = db.prepare('SELECT item_id FROM candidates WHERE id = ?').get(candidateId) as
        | { item_id: number }
        | undefined
      if (!c || c.item_id !== input.itemId)
        throw new UnitsError('bad_input', `Candidate ${candidateId} does not belong to item ${input.itemId}`)
    }
    let position: number | undefined
    if (input.afterUnitId === null) {
      const r = db
        .prepare(
          `SELECT MIN(position) AS p FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?
           AND superseded_by IS NULL AND deleted_at IS NULL`,
        )
        .get(input.itemId, input.kind, candidateId) as { p: number | null }
      position = (r.p ?? 1) - 1
    } else if (input.afterUnitId !== undefined) {
      const after = currentUnitRow(db, input.afterUnitId)
      if (after.item_id !== input.itemId || after.kind !== input.kind || after.candidate_id !== candidateId)
        throw new UnitsError('bad_input', `Unit ${input.afterUnitId} is not in the same list`)
      position = positionsAfter(db, after, 1)[0]
    }
    const id = writerFor(db).insertUnit(input.itemId, {
      kind: input.kind,
      text,
      candidateId,
      triplet: parts,
      origin: PERSON_ORIGIN,
      ...(position === undefined ? {} : { position }),
    })
    return toUnit(unitRow(db, id))
  })()
}

/** Hides a unit from labelling and metrics. The row and its labels stay, so this can be undone. */
export function deleteUnit(db: Db, unitId: number): Unit {
  return db.transaction(() => {
    const row = currentUnitRow(db, unitId)
    db.prepare('UPDATE units SET deleted_at = ? WHERE id = ?').run(now(), row.id)
    return toUnit(unitRow(db, row.id))
  })()
}

export function restoreUnit(db: Db, unitId: number): Unit {
  return db.transaction(() => {
    const row = unitRow(db, unitId)
    if (row.superseded_by !== null)
      throw new UnitsError('conflict', `Unit ${unitId} has been replaced by unit ${row.superseded_by}`)
    if (row.deleted_at === null) return toUnit(row)
    db.prepare('UPDATE units SET deleted_at = NULL WHERE id = ?').run(row.id)
    // Candidates added while the unit was deleted have no target for it yet.
    writerFor(db).addTargets(row.id, row.item_id, row.kind as UnitKind, row.candidate_id)
    return toUnit(unitRow(db, row.id))
  })()
}

/**
 * Splits one unit into several: the first piece takes the unit's place (as an edit, so labels
 * on the old text are kept with it) and the others follow it in order. A triplet with parts
 * splits only into triplets (see splitTriplet).
 */
export function splitUnit(db: Db, unitId: number, texts: readonly string[]): Unit[] {
  return db.transaction(() => {
    const pieces = texts.map((t, i) => cleanText(t, `Piece ${i + 1} of the split`))
    if (pieces.length < 2) throw new UnitsError('bad_input', 'A split needs at least two pieces')
    const row = currentUnitRow(db, unitId)
    if (row.kind === 'triplet' && row.triplet !== null)
      throw new UnitsError('bad_input', TRIPLET_SPLIT_NEEDS_PARTS)
    return splitInto(
      db,
      row,
      pieces.map((text) => ({ text, triplet: null })),
    )
  })()
}

/** Splits a compound claim into several triplets, the first taking the old one's place. */
export function splitTriplet(db: Db, unitId: number, triplets: readonly (readonly string[])[]): Unit[] {
  return db.transaction(() => {
    const pieces = triplets.map((t, i) => tripletContent(t, `Triplet ${i + 1} of the split: `))
    if (pieces.length < 2) throw new UnitsError('bad_input', 'A split needs at least two triplets')
    const row = currentUnitRow(db, unitId)
    if (row.kind !== 'triplet')
      throw new UnitsError('bad_input', `Only a triplet splits into triplets; this unit is a ${row.kind}`)
    return splitInto(db, row, pieces)
  })()
}

function splitInto(db: Db, row: UnitRow, pieces: readonly UnitContent[]): Unit[] {
  const first = editRow(db, row, pieces[0]!).unit
  const positions = positionsAfter(db, unitRow(db, first.id), pieces.length - 1)
  const rest = pieces.slice(1).map((piece, i) =>
    writerFor(db).insertUnit(row.item_id, {
      kind: row.kind as UnitKind,
      text: piece.text,
      candidateId: row.candidate_id,
      triplet: piece.triplet,
      origin: PERSON_ORIGIN,
      position: positions[i]!,
    }),
  )
  return [first, ...rest.map((id) => toUnit(unitRow(db, id)))]
}

/**
 * Merges units of one list into the first of them (by position); the others are deleted (soft,
 * labels kept). Without a text the pieces are joined with spaces.
 */
export function mergeUnits(db: Db, unitIds: readonly number[], text?: string): EditResult {
  return db.transaction(() => {
    const ids = [...new Set(unitIds)]
    if (ids.length < 2) throw new UnitsError('bad_input', 'A merge needs at least two different units')
    const rows = ids.map((id) => currentUnitRow(db, id)).sort((a, b) => a.position - b.position)
    const first = rows[0]!
    for (const r of rows)
      if (r.item_id !== first.item_id || r.kind !== first.kind || r.candidate_id !== first.candidate_id)
        throw new UnitsError('bad_input', 'Only units of the same item, kind and candidate can be merged')
    if (first.kind === 'triplet') throw new UnitsError('bad_input', TRIPLET_MERGE_REFUSED)
    const merged = text === undefined ? rows.map((r) => r.text).join(' ') : cleanText(text)
    const result = editRow(db, first, { text: merged, triplet: null })
    const del = db.prepare('UPDATE units SET deleted_at = ? WHERE id = ?')
    const at = now()
    for (const r of rows.slice(1)) del.run(at, r.id)
    return result
  })()
}

/**
 * Sets the order of one list of units (an item's facts, or one candidate's units of a kind).
 * The ids must be exactly the current units of that list.
 */
export function reorderUnits(
  db: Db,
  itemId: number,
  kind: UnitKind,
  candidateId: number | null,
  orderedIds: readonly number[],
): Unit[] {
  return db.transaction(() => {
    const cid = kind === 'fact' ? null : candidateId
    const current = db
      .prepare(
        `SELECT id FROM units WHERE item_id = ? AND kind = ? AND candidate_id IS ?
         AND superseded_by IS NULL AND deleted_at IS NULL`,
      )
      .all(itemId, kind, cid) as { id: number }[]
    const expected = new Set(current.map((r) => r.id))
    const given = new Set(orderedIds)
    if (
      given.size !== orderedIds.length ||
      given.size !== expected.size ||
      ![...given].every((id) => expected.has(id))
    )
      throw new UnitsError(
        'conflict',
        'The order given does not list exactly the current units of this list; reload and try again',
      )
    const set = db.prepare('UPDATE units SET position = ? WHERE id = ?')
    for (const [i, id] of orderedIds.entries()) set.run(i, id)
    return orderedIds.map((id) => toUnit(unitRow(db, id)))
  })()
}
