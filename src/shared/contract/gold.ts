import { z } from 'zod'
import { GoldRule } from '../goldRule'
import { call } from './define'

/** A dataset's gold rule (how gold is made where nobody adjudicated) and its history. */

export const GoldRuleChangeSchema = z.object({
  id: z.number().int(),
  rule: GoldRule,
  previous: GoldRule,
  description: z.string(),
  changedBy: z.string().nullable(),
  changedAt: z.string(),
  goldBefore: z.number().int(),
  goldAfter: z.number().int(),
  /** Targets whose gold the change moved. */
  moved: z.number().int(),
})
export type GoldRuleChangeInfo = z.infer<typeof GoldRuleChangeSchema>

export const GoldRuleState = z.object({
  rule: GoldRule,
  description: z.string(),
  history: z.array(GoldRuleChangeSchema),
})
export type GoldRuleState = z.infer<typeof GoldRuleState>

const DatasetId = z.number().int().positive()

export const goldCalls = {
  'gold.rule': call(z.object({ datasetId: DatasetId }), GoldRuleState),
  /** Sets the rule; gold is recomputed at once and the change is kept in the history. */
  'gold.setRule': call(
    z.object({
      datasetId: DatasetId,
      rule: GoldRule,
      changedBy: z.string().trim().min(1).nullable().optional(),
    }),
    GoldRuleState,
  ),
}
