import type { agreementCalls } from '../../../shared/contract/agreement'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { stepOut } from '../../blind'
import { adjudicate, adjudicationQueue } from '../../labels/adjudication'
import { awaitDisputes, startDisputes } from '../../labels/disputesInBackground'
import { agreementForDataset } from '../../metrics/agreementService'
import { datasetAgreement } from '../../metrics/datasetAgreement'
import { loadSnapshotEarly } from '../../metrics/snapshotInBackground'
import { getDataset, updateDatasetSettings } from '../../store/repos/datasets'
import { UnitsError } from '../../units/rows'
import type { Handlers } from '../dispatch'

function guard<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof UnitsError) throw new ServiceError(error.code, error.message)
    if (error instanceof Error && /^No dataset with id/.test(error.message))
      throw new ServiceError('not_found', error.message)
    throw error
  }
}

export function agreementHandlers(ctx: AppContext): Pick<Handlers, keyof typeof agreementCalls> {
  const db = () => ctx.workspace.db
  return {
    'agreement.summary': async (i) => {
      const schema = guard(() => getDataset(db(), i.datasetId).labelSchema)
      // The view asks for its queue next: that list is read on the second core meanwhile…
      startDisputes(db(), schema, i.datasetId, null)
      // …as are the label blocks of a cold load of the whole dataset's labels.
      if (i.guidelinesVersion === undefined && !i.includeControls) await loadSnapshotEarly(db(), i.datasetId)
      return guard(() => {
        const numeric = schema.type === 'numeric'
        // A guidelines-version slice is read row by row; the whole dataset comes from the label
        // columns the Compare view shares, computed once per workspace version.
        const figures =
          i.guidelinesVersion === undefined
            ? datasetAgreement(db(), i.datasetId, i.includeControls ?? false)
            : agreementForDataset(db(), i.datasetId, {
                includeControls: i.includeControls,
                guidelinesVersion: i.guidelinesVersion,
              })
        return {
          ...figures,
          alphaLevel: numeric ? 'interval' : 'nominal',
        }
      })
    },
    'agreement.queue': async (i) => {
      // Whichever of the view's two calls comes first starts the list's background read.
      const schema = guard(() => getDataset(db(), i.datasetId).labelSchema)
      startDisputes(db(), schema, i.datasetId, i.variant ?? null)
      await awaitDisputes(db(), schema, i.datasetId, i.variant ?? null)
      return guard(() => adjudicationQueue(db(), i.datasetId, i))
    },
    'agreement.stepOut': (i) =>
      guard(() => {
        getDataset(db(), i.datasetId)
        if (!db().prepare('SELECT 1 FROM annotators WHERE id = ?').get(i.annotatorId))
          throw new ServiceError('not_found', `No annotator with id ${i.annotatorId}`)
        stepOut(db(), i.datasetId, i.annotatorId)
        return { steppedOut: true }
      }),
    'agreement.setSelfAdjudication': (i) =>
      guard(() => {
        getDataset(db(), i.datasetId)
        const s = updateDatasetSettings(db(), i.datasetId, { allowSelfAdjudication: i.allow })
        return { allowSelfAdjudication: s.allowSelfAdjudication }
      }),
    'agreement.adjudicate': (i) =>
      guard(() => {
        const { datasetId, entry } = adjudicate(db(), i)
        // Gold feeds every judge metric, so views showing them refresh as after a label change.
        ctx.events.emit('labels.changed', { datasetId, targetIds: [i.targetId] })
        return {
          targetId: i.targetId,
          gold: entry.gold!,
          open: adjudicationQueue(db(), datasetId, { limit: 1 }).open,
        }
      }),
  }
}
