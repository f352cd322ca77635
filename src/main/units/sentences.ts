import type { Unit } from '../../shared/domain'
import type { Db } from '../store/connection'
import { ContentWriter } from '../store/repos/content'
import { toUnit, type UnitRow, UnitsError } from './rows'
import { splitSentences } from './splitter'

export const SPLITTER_ORIGIN = 'splitter'

export interface SentenceUnitsResult {
  /** Units made now; empty when the candidate already had sentence units (nothing is doubled). */
  created: Unit[]
  /** The candidate's current sentence units after the call, in order. */
  units: Unit[]
}

function currentSentences(db: Db, candidateId: number): Unit[] {
  return (
    db
      .prepare(
        `SELECT * FROM units WHERE candidate_id = ? AND kind = 'sentence'
         AND superseded_by IS NULL AND deleted_at IS NULL ORDER BY position, id`,
      )
      .all(candidateId) as UnitRow[]
  ).map(toUnit)
}

/**
 * DCR's divide step done deterministically: one `sentence` unit per sentence of the candidate.
 * Running it again on a candidate that already has sentence units changes nothing, so a
 * person's edits to those units are never overwritten.
 */
export function createSentenceUnits(
  db: Db,
  candidateId: number,
  writer = new ContentWriter(db),
): SentenceUnitsResult {
  return db.transaction(() => {
    const cand = db.prepare('SELECT item_id, text FROM candidates WHERE id = ?').get(candidateId) as
      | { item_id: number; text: string }
      | undefined
    if (!cand) throw new UnitsError('not_found', `No candidate with id ${candidateId}`)
    const existing = currentSentences(db, candidateId)
    if (existing.length > 0) return { created: [], units: existing }
    const ids = splitSentences(cand.text).map((s, i) =>
      writer.insertUnit(cand.item_id, {
        kind: 'sentence',
        text: s.text,
        candidateId,
        origin: SPLITTER_ORIGIN,
        position: i,
      }),
    )
    const units = currentSentences(db, candidateId)
    return { created: units.filter((u) => ids.includes(u.id)), units }
  })()
}

/** Splits every candidate of a dataset (optionally one variant) that has no sentence units yet. */
export function createSentenceUnitsForDataset(
  db: Db,
  datasetId: number,
  variant?: string,
): { candidates: number; units: number } {
  return db.transaction(() => {
    const cands = db
      .prepare(
        `SELECT c.id FROM candidates c JOIN items i ON i.id = c.item_id
         WHERE i.dataset_id = ? AND (? IS NULL OR c.variant = ?) ORDER BY i.position, c.id`,
      )
      .all(datasetId, variant ?? null, variant ?? null) as { id: number }[]
    const writer = new ContentWriter(db)
    let candidates = 0
    let units = 0
    for (const c of cands) {
      const r = createSentenceUnits(db, c.id, writer)
      if (r.created.length > 0) candidates++
      units += r.created.length
    }
    return { candidates, units }
  })()
}
