import type { judgesCalls } from '../../../shared/contract/judges'
import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'

export function judgesHandlers(_ctx: AppContext): Pick<Handlers, keyof typeof judgesCalls> {
  return {}
}
