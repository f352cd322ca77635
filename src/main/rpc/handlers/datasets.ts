import type { datasetsCalls } from '../../../shared/contract/datasets'
import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'

export function datasetsHandlers(_ctx: AppContext): Pick<Handlers, keyof typeof datasetsCalls> {
  return {}
}
