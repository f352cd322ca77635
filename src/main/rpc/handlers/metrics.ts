import type { metricsCalls } from '../../../shared/contract/metrics'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { blindGate } from '../../blind'
import {
  awaitCompareAgreement,
  awaitCompareLists,
  startCompareLists,
} from '../../metrics/compareInBackground'
import { computeItemLevel, withItemLevel } from '../../metrics/items'
import { narrowing } from '../../metrics/narrowing'
import { disagreements, labelNext } from '../../metrics/queries'
import { computeDatasetMetrics, datasetFigures } from '../../metrics/service'
import { loadSnapshotEarly } from '../../metrics/snapshotInBackground'
import { withHumanCosts } from '../../projects/humanCost'
import { renderReport } from '../../reports'
import type { Db } from '../../store/connection'
import { datasetVisible } from '../../store/repos/datasets'
import type { Handlers } from '../dispatch'

function requireDataset(db: Db, datasetId: number): void {
  if (!datasetVisible(db, datasetId)) throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
}

export function metricsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof metricsCalls> {
  return {
    'metrics.compare': async ({ datasetId, seed, replicates, includeControls, refcheckerNa }) => {
      const db = ctx.workspace.db
      requireDataset(db, datasetId)
      const opts = { seed, replicates, includeControls, refcheckerNa }
      if (!includeControls) {
        // A cold snapshot of a large dataset loads on both cores; then the agreement figures and
        // the lists the view asks for next are worked out on the second core while this thread
        // works out the judges' and the humans' figures.
        await loadSnapshotEarly(db, datasetId, { withTimes: true, withRuns: true })
        startCompareLists(db, datasetId)
        datasetFigures(db, datasetId, opts)
        await awaitCompareAgreement(db, datasetId)
      }
      return withHumanCosts(db, computeDatasetMetrics(db, datasetId, opts))
    },
    'metrics.disagreements': async ({ datasetId, runId, variant, limit, viewer }) => {
      const db = ctx.workspace.db
      requireDataset(db, datasetId)
      const gate = blindGate(db, datasetId, viewer)
      if (gate.open) await awaitCompareLists(db, datasetId)
      // An open gate hides nothing: the list is the shared one, kept until the workspace changes.
      return disagreements(db, datasetId, {
        runId,
        variant,
        limit,
        reveals: gate.open ? undefined : gate.reveals,
      })
    },
    'metrics.labelNext': async ({ datasetId, limit, viewer }) => {
      const db = ctx.workspace.db
      requireDataset(db, datasetId)
      await awaitCompareLists(db, datasetId)
      // The judges' split on a target is their verdicts in another form: blind keeps it back too.
      const gate = blindGate(db, datasetId, viewer)
      const queue = gate.open ? labelNext(db, datasetId, limit) : []
      return { queue, narrowing: narrowing(db, datasetId) }
    },
    'metrics.itemLevel': ({ datasetId, seed, replicates }) => {
      const db = ctx.workspace.db
      requireDataset(db, datasetId)
      return computeItemLevel(db, datasetId, { seed, replicates })
    },
    'metrics.report': ({ datasetId, format }) => {
      const db = ctx.workspace.db
      requireDataset(db, datasetId)
      return renderReport(withItemLevel(db, withHumanCosts(db, computeDatasetMetrics(db, datasetId))), format)
    },
  }
}
