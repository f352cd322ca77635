import type { metricsCalls } from '../../../shared/contract/metrics'
import type { AppContext } from '../../app/context'
import type { Handlers } from '../dispatch'

export function metricsHandlers(_ctx: AppContext): Pick<Handlers, keyof typeof metricsCalls> {
  return {}
}
