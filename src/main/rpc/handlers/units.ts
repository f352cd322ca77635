import type { unitsCalls } from '../../../shared/contract/units'
import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'

export function unitsHandlers(_ctx: AppContext): Pick<Handlers, keyof typeof unitsCalls> {
  return {}
}
