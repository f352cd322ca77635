import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'
import { agreementHandlers } from './agreement'
import { annotateHandlers } from './annotate'
import { datasetsHandlers } from './datasets'
import { exportsHandlers } from './exports'
import { goldHandlers } from './gold'
import { judgesHandlers } from './judges'
import { metricsHandlers } from './metrics'
import { projectsHandlers } from './projects'
import { unitsHandlers } from './units'
import { workspaceHandlers } from './workspace'

/** Every call of the contract bound to its service; the type makes a missing handler an error. */
export function buildHandlers(ctx: AppContext): Handlers {
  return {
    ...workspaceHandlers(ctx),
    ...datasetsHandlers(ctx),
    ...annotateHandlers(ctx),
    ...unitsHandlers(ctx),
    ...agreementHandlers(ctx),
    ...judgesHandlers(ctx),
    ...metricsHandlers(ctx),
    ...exportsHandlers(ctx),
    ...goldHandlers(ctx),
    ...projectsHandlers(ctx),
  }
}
