import type { goldCalls } from '../../../shared/contract/gold'
import { describeGoldRule } from '../../../shared/goldRule'
import type { AppContext } from '../../app/context'
import { ServiceError } from '../../app/errors'
import { GoldRuleError, goldRuleHistory, goldRuleOf, setGoldRule } from '../../labels/ruleService'
import type { Db } from '../../store/connection'
import type { Handlers } from '../dispatch'

function guard<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof GoldRuleError) throw new ServiceError('bad_input', error.message)
    if (error instanceof Error && /^No dataset with id/.test(error.message))
      throw new ServiceError('not_found', error.message)
    throw error
  }
}

function state(db: Db, datasetId: number) {
  const rule = goldRuleOf(db, datasetId)
  return { rule, description: describeGoldRule(rule), history: goldRuleHistory(db, datasetId) }
}

export function goldHandlers(ctx: AppContext): Pick<Handlers, keyof typeof goldCalls> {
  const db = () => ctx.workspace.db
  return {
    'gold.rule': (i) => guard(() => state(db(), i.datasetId)),
    'gold.setRule': (i) =>
      guard(() => {
        const change = setGoldRule(db(), i.datasetId, i.rule, i.changedBy ?? null)
        // Gold feeds every figure: views refresh as after a label change.
        if (change) ctx.events.emit('labels.changed', { datasetId: i.datasetId, targetIds: [] })
        return state(db(), i.datasetId)
      }),
  }
}
