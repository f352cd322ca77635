import { z } from 'zod'
import type { CostSplit as CostSplitShape } from '../costSplit'

/** A run's tokens by the price each was paid at, and their money (shared/costSplit.ts says them). */

const SplitPart = z.object({ tokens: z.number().int(), cost: z.number().nullable() })

const NONE = { tokens: 0, cost: null }

export const CostSplit = z.object({
  uncached: SplitPart,
  cacheRead: SplitPart,
  cacheWrite: SplitPart,
  output: SplitPart,
}) satisfies z.ZodType<CostSplitShape>

/** A run that reached no provider: nothing in any part. */
export const NO_SPLIT: CostSplitShape = { uncached: NONE, cacheRead: NONE, cacheWrite: NONE, output: NONE }
