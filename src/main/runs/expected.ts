import { countOf } from '../../shared/plural'
import { type CallUsage, callCost } from '../providers/models'
import { hasPrices, type RunPrices } from './pricing'

/*
 * What a run that is not finished is expected to cost, and what that figure rests on, in words.
 * Pure: `judge status` and the Judges view show the same figure and the same sentence.
 *
 * The calls left are those the run plans (judges/plannedCalls.ts) less those made; each is priced
 * exactly as a made call is (providers/models.ts callCost, pricing.ts): the run's prices, cache
 * reads and writes at theirs, less the batch discount when the run goes through a provider batch.
 * Its tokens are the average of the calls answered so far; before any answer, only the request
 * is known: about a token per 4 bytes of the body a call sends, the same reckoning in both modes
 * (batches/status.ts). That counts a JSON body's quoting and a tool schema's spelling against the
 * provider's tokenizer, and leaves the replies out, so the figure may come out above or below the
 * cost: the words say it is a rough guess, and claim no direction.
 */

/** Said of an estimate made before any answer: what it rests on, and that it leans neither way. */
export const ROUGH_GUESS =
  'a rough guess from the size of the requests, with no reply counted yet, so the cost may come out above or below it'

export interface ExpectedInput {
  /** Money spent so far (the run summary's). */
  cost: number
  mode: 'sync' | 'batch'
  prices: RunPrices
  /** Calls the run plans; null before its first start. */
  planned: number | null
  /** Calls made so far: answered, from the cache or failed. */
  made: number
  /** Requests sent in a batch and not yet answered (they are calls left too). */
  waiting: number
  /** The average tokens of the answered calls (cache hits left out), and how many there were. */
  answered: { n: number; usage: CallUsage }
  /** Before any answer: the prompt tokens of one call still to make, estimated from its request. */
  promptTokens: number | null
}

export interface Expected {
  /** Null where calls are left and no price is known: what they will cost is unknown, not nothing. */
  expectedCost: number | null
  /** What the expected cost is based on, as a clause ("based on …"). */
  expectedBasis: string
}

export function expectedCost(x: ExpectedInput): Expected {
  const batch = x.mode === 'batch'
  const left = x.planned === null ? x.waiting : Math.max(x.waiting, x.planned - x.made)
  const at = batch ? 'at the batch price' : "at the run's prices"
  const plan = x.planned === null ? '' : ` of ${countOf(x.planned, 'planned call')}`
  if (x.planned === null && x.waiting === 0)
    return {
      expectedCost: x.cost,
      expectedBasis: 'not known yet: the run plans its calls when it starts',
    }
  if (left === 0) return { expectedCost: x.cost, expectedBasis: 'no calls left: the cost so far' }
  const calls = `${countOf(left, 'call')} left${plan}`
  if (!hasPrices(x.prices))
    return {
      expectedCost: null,
      expectedBasis: `${calls}, not priced: the model has no price entered`,
    }
  if (x.answered.n > 0)
    return {
      expectedCost: x.cost + left * callCost(x.prices, x.answered.usage, batch),
      expectedBasis: `${calls}, each at the average tokens of the ${countOf(x.answered.n, 'call')} answered so far, ${at}`,
    }
  if (x.promptTokens === null)
    return {
      expectedCost: x.cost,
      expectedBasis: `${calls}; not known before the first call is answered`,
    }
  const prompt = Math.round(x.promptTokens)
  const each = callCost(x.prices, { promptTokens: prompt, completionTokens: 0 }, batch)
  return {
    expectedCost: x.cost + left * each,
    expectedBasis: `${calls}, each at about ${countOf(prompt, 'prompt token')} ${at}; ${ROUGH_GUESS}`,
  }
}
