import type { annotateCalls } from '../../../shared/contract/annotate'
import { nextTarget, openAnnotateView } from '../../annotate/view'
import type { AppContext } from '../../app/context'
import { saveLabel } from '../../labels/save'
import type { Handlers } from '../dispatch'

export function annotateHandlers(ctx: AppContext): Pick<Handlers, keyof typeof annotateCalls> {
  return {
    'annotate.open': (input) => openAnnotateView(ctx.workspace.db, input),
    'annotate.save': (input) => {
      const { label, datasetId } = saveLabel(ctx.workspace, input)
      ctx.events.emit('labels.changed', { datasetId, targetIds: [input.targetId] })
      return label
    },
    'annotate.next': (input) => nextTarget(ctx.workspace.db, input),
  }
}
