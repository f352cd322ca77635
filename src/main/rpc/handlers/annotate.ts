import type { annotateCalls } from '../../../shared/contract/annotate'
import { nextTarget, openAnnotateView } from '../../annotate/view'
import type { AppContext } from '../../app/context'
import { refuseLabelIfSteppedOut } from '../../blind'
import { datasetOfTarget, saveLabel } from '../../labels/save'
import { savedBefore } from '../../labels/saveOnce'
import { refuseLabelOutsidePackage } from '../../projects/packageOwner'
import type { Handlers } from '../dispatch'

export function annotateHandlers(ctx: AppContext): Pick<Handlers, keyof typeof annotateCalls> {
  return {
    'annotate.open': (input) => openAnnotateView(ctx.workspace.db, input),
    'annotate.save': (input) => {
      // A save sent again after it landed gets its first answer, before any check that the
      // screen it came from may since have failed (a unit reworded, a person stepped out).
      const first = savedBefore(ctx.workspace.db, input)
      if (first !== null) return first
      const of = datasetOfTarget(ctx.workspace.db, input.targetId)
      // Someone who stepped out of labelling a dataset to adjudicate it has seen every verdict.
      refuseLabelIfSteppedOut(ctx.workspace.db, of, input.annotatorId)
      // A laptop's dataset is its package's annotator's: another name's labels could never go back.
      refuseLabelOutsidePackage(ctx.workspace.db, of, input.annotatorId)
      const { label, datasetId } = saveLabel(ctx.workspace, input)
      ctx.events.emit('labels.changed', { datasetId, targetIds: [input.targetId] })
      return label
    },
    'annotate.next': (input) => nextTarget(ctx.workspace.db, input),
  }
}
