import type { annotateCalls } from '../../../shared/contract/annotate'
import { nextTarget, openAnnotateView } from '../../annotate/view'
import type { AppContext } from '../../app/context'
import { refuseLabelIfSteppedOut } from '../../blind'
import { datasetOfTarget, saveLabel } from '../../labels/save'
import { savedBefore } from '../../labels/saveOnce'
import { refuseLabelOutsidePackage } from '../../projects/packageOwner'
import { withBusyTimeout } from '../../store/busyWait'
import type { Handlers } from '../dispatch'

/** How long a label saved from a screen waits for another program's write lock before it is retried. */
export const SCREEN_SAVE_BUSY_MS = 200

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
      // The app and the server answer every window on one thread: a label waits for another
      // program's lock briefly, and the screen's queue keeps it and tries again; one CLI command
      // waits the connection's full busy timeout.
      const save = () => saveLabel(ctx.workspace, input)
      const { label, datasetId } =
        ctx.driver === 'cli' ? save() : withBusyTimeout(ctx.workspace.db, SCREEN_SAVE_BUSY_MS, save)
      ctx.events.emit('labels.changed', { datasetId, targetIds: [input.targetId] })
      return label
    },
    'annotate.next': (input) => nextTarget(ctx.workspace.db, input),
  }
}
