import { z } from 'zod'
import { UNIT_REWORDED } from '../../shared/contract/annotate'
import type { Label } from '../../shared/domain'
import { ServiceError, unavailableError } from '../app/errors'
import type { Workspace } from '../app/workspace'
import type { Db } from '../store/connection'
import { notAPerson } from '../store/repos/annotators'
import { datasetVisible } from '../store/repos/datasets'
import { stmt } from '../store/statements'
import { rememberSave, type SaveRequest, savedBefore } from './saveOnce'

/**
 * Saves one label through the LabelWriter (history row included) and says which dataset it
 * touched, so the caller can tell the other views. A refused verdict is the caller's mistake; a
 * store that cannot take the write now (locked by another process, disk full) is not, and says
 * so with `unavailable`: the label may be sent again unchanged. A save id already stored is
 * answered with its first label and writes nothing (saveOnce.ts).
 */
export function saveLabel(ws: Workspace, input: SaveRequest): { label: Label; datasetId: number } {
  const datasetId = datasetOfTarget(ws.db, input.targetId)
  requirePerson(ws.db, input.annotatorId)
  requireCurrentWording(ws.db, input.targetId)
  if (input.guidelinesVersion !== undefined)
    requireGuidelinesVersion(ws.db, datasetId, input.guidelinesVersion)
  // One transaction: the label, its history row and its save id land together or not at all.
  const once = ws.db.transaction((): Label => {
    const first = savedBefore(ws.db, input)
    if (first !== null) return first
    const label = ws.labels.save(input)
    rememberSave(ws.db, input, label)
    return label
  })
  try {
    return { label: once.immediate(), datasetId }
  } catch (error) {
    if (error instanceof ServiceError) throw error
    throw (
      unavailableError(error) ??
      new ServiceError('bad_input', error instanceof Error ? error.message : String(error))
    )
  }
}

/**
 * A label goes on the wording the dataset has now. One given on a screen opened before the unit
 * was reworded or removed (a package opened from the CLI in another process is seen only on the
 * next read) would sit on a hidden wording while the new one shows no label.
 */
function requireCurrentWording(db: Db, targetId: number): void {
  const row = stmt(
    db,
    `SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id
     WHERE t.id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
  ).get(targetId)
  if (row === undefined) throw new ServiceError('conflict', UNIT_REWORDED)
}

/** A label is recorded under a guidelines version the dataset has (versions are never deleted). */
function requireGuidelinesVersion(db: Db, datasetId: number, version: number): void {
  if (!db.prepare('SELECT 1 FROM guidelines WHERE dataset_id = ? AND version = ?').get(datasetId, version))
    throw new ServiceError(
      'bad_input',
      `This dataset has no guidelines version ${version}; the label was not saved. Reopen the dataset to load the current guidelines.`,
    )
}

/** Labels are written in the name of a known annotator only. */
export function requireAnnotator(db: Db, annotatorId: number): void {
  if (!db.prepare('SELECT 1 FROM annotators WHERE id = ?').get(annotatorId))
    throw new ServiceError('not_found', `No annotator with id ${annotatorId}: choose who is labelling again`)
}

const AnnotatorRow = z.object({ name: z.string(), kind: z.string() })

/**
 * Labels are given by people only. A source's labels come with its dataset's import; a verdict
 * saved under it (from any transport: the window, a script's call, the CLI) would replace them.
 */
export function requirePerson(db: Db, annotatorId: number): void {
  const row = db.prepare('SELECT name, kind FROM annotators WHERE id = ?').get(annotatorId)
  if (row === undefined)
    throw new ServiceError('not_found', `No annotator with id ${annotatorId}: choose who is labelling again`)
  const a = AnnotatorRow.parse(row)
  if (a.kind === 'source') throw new ServiceError('conflict', notAPerson(a.name))
}

const DatasetOfTarget = z.object({ datasetId: z.number().int() })

export function datasetOfTarget(db: Db, targetId: number): number {
  const row = db.prepare('SELECT dataset_id AS datasetId FROM targets WHERE id = ?').get(targetId)
  const datasetId = row === undefined ? null : DatasetOfTarget.parse(row).datasetId
  // A target of a dataset still being imported goes if the import is withdrawn, and a label with it.
  if (datasetId === null || !datasetVisible(db, datasetId))
    throw new ServiceError(
      'not_found',
      `No target with id ${targetId}: its unit is no longer in this workspace (the dataset was removed or its import withdrawn). Nothing was saved.`,
    )
  return datasetId
}
