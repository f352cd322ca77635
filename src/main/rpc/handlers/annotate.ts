import type { annotateCalls } from '../../../shared/contract/annotate'
import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'

export function annotateHandlers(_ctx: AppContext): Pick<Handlers, keyof typeof annotateCalls> {
  return {}
}
