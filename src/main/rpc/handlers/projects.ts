import type { projectsCalls } from '../../../shared/contract/projects'
import type { AppContext } from '../../app/context'
import {
  guidelinesVersions,
  markGuidelinesRead,
  mustReadGuidelines,
  saveGuidelines,
} from '../../guidelines/guidelines'
import { clearControls, goldTargets, listControls, setControls } from '../../projects/controls'
import { projectDashboard } from '../../projects/dashboard'
import { getPlan, setPlan } from '../../projects/plan'
import { now } from '../../store/repos/rows'
import type { Handlers } from '../dispatch'

export function projectsHandlers(ctx: AppContext): Pick<Handlers, keyof typeof projectsCalls> {
  const db = () => ctx.workspace.db
  return {
    'projects.plan': ({ datasetId }) => getPlan(db(), datasetId),
    'projects.setPlan': (input) => {
      const plan = setPlan(db(), input)
      ctx.events.emit('labels.changed', { datasetId: input.datasetId, targetIds: [] })
      return plan
    },
    'projects.dashboard': ({ datasetId }) => projectDashboard(db(), datasetId),
    'projects.guidelines': ({ datasetId, annotatorId }) => {
      const [current = null, ...history] = guidelinesVersions(db(), datasetId)
      return {
        current,
        history,
        mustRead: annotatorId === undefined ? false : mustReadGuidelines(db(), datasetId, annotatorId),
      }
    },
    'projects.saveGuidelines': ({ datasetId, body, author }) => saveGuidelines(db(), datasetId, body, author),
    'projects.readGuidelines': ({ datasetId, annotatorId, version }) => {
      markGuidelinesRead(db(), datasetId, annotatorId, version)
      return { ok: true as const }
    },
    'projects.setControls': ({ datasetId, fromGold, allGold, answers }) =>
      setControls(
        db(),
        datasetId,
        { fromGold: allGold ? [...fromGold, ...goldTargets(db(), datasetId)] : fromGold, answers },
        now(),
      ),
    'projects.clearControls': ({ datasetId, targetIds }) => clearControls(db(), datasetId, targetIds),
    'projects.controls': ({ datasetId }) => listControls(db(), datasetId),
  }
}
