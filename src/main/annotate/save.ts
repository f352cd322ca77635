import type { Label, LabelInput } from '../../shared/domain'
import type { Workspace } from '../app/workspace'
import { ServiceError } from '../rpc/dispatch'
import { datasetOfTarget, requireAnnotator } from './view'

/**
 * Saves one label through the LabelWriter (history row included) and says which dataset it
 * touched, so the caller can tell the other views. A refused verdict is the caller's mistake.
 */
export function saveLabel(ws: Workspace, input: LabelInput): { label: Label; datasetId: number } {
  const datasetId = datasetOfTarget(ws.db, input.targetId)
  requireAnnotator(ws.db, input.annotatorId)
  try {
    return { label: ws.labels.save(input), datasetId }
  } catch (error) {
    throw new ServiceError('bad_input', error instanceof Error ? error.message : String(error))
  }
}
