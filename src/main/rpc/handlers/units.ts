import type { unitsCalls } from '../../../shared/contract/units'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import {
  addUnit,
  deleteUnit,
  editUnit,
  mergeUnits,
  reorderUnits,
  restoreUnit,
  splitTriplet,
  splitUnit,
} from '../../units/edit'
import { unitsPage, unitVersions } from '../../units/queries'
import { UnitsError } from '../../units/rows'
import { createSentenceUnits, createSentenceUnitsForDataset } from '../../units/sentences'
import type { Handlers } from '../dispatch'

/** Turns the service's own refusals into typed RPC errors; anything else stays `failed`. */
function guard<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof UnitsError) throw new ServiceError(error.code, error.message)
    throw error
  }
}

export function unitsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof unitsCalls> {
  const db = () => ctx.workspace.db
  return {
    'units.list': (i) => guard(() => unitsPage(db(), i.datasetId, i)),
    'units.edit': (i) => guard(() => editUnit(db(), i.unitId, i.text, i.triplet)),
    'units.add': (i) => guard(() => addUnit(db(), i)),
    'units.delete': (i) => guard(() => deleteUnit(db(), i.unitId)),
    'units.restore': (i) => guard(() => restoreUnit(db(), i.unitId)),
    'units.split': (i) =>
      guard(() =>
        i.triplets !== undefined
          ? splitTriplet(db(), i.unitId, i.triplets)
          : splitUnit(db(), i.unitId, i.texts ?? []),
      ),
    'units.merge': (i) => guard(() => mergeUnits(db(), i.unitIds, i.text)),
    'units.reorder': (i) => guard(() => reorderUnits(db(), i.itemId, i.kind, i.candidateId, i.orderedIds)),
    'units.versions': (i) => guard(() => unitVersions(db(), i.lineageId, i.viewer)),
    'units.splitSentences': (i) =>
      guard(() => {
        if ('candidateId' in i) {
          const r = createSentenceUnits(db(), i.candidateId, ctx.workspace.content)
          return { candidates: r.created.length > 0 ? 1 : 0, units: r.created.length }
        }
        return createSentenceUnitsForDataset(db(), i.datasetId, i.variant)
      }),
  }
}
