import type { agreementCalls } from '../../../shared/contract/agreement'
import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'

export function agreementHandlers(_ctx: AppContext): Pick<Handlers, keyof typeof agreementCalls> {
  return {}
}
