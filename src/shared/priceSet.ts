/*
 * Whether a model (or a run) has a price. A price of 0 stands for "not entered": a model never
 * edited reads 0 everywhere, and nothing tells that 0 apart from one typed on purpose. So a model
 * left at 0 has no price and its runs' cost reads "no price set", never free; a free local model
 * reads the same. One rule for the run pricing, the model panel and `models list`.
 */

/** The price figures a run freezes; a cache price left to the provider's usual ratio is null. */
export interface PriceFigures {
  input: number
  output: number
  cacheRead?: number | null
  cacheWrite?: number | null
}

/** Whether any price was entered: a model left at 0 everywhere has none. */
export function hasPrices(p: PriceFigures): boolean {
  return p.input > 0 || p.output > 0 || (p.cacheRead ?? 0) > 0 || (p.cacheWrite ?? 0) > 0
}

/** The same rule over a model entry's fields (the model panel's and `models list`'s shape). */
export function modelHasPrices(m: {
  priceInputPerMTok: number
  priceOutputPerMTok: number
  priceCacheReadPerMTok: number | null
  priceCacheWritePerMTok: number | null
}): boolean {
  return hasPrices({
    input: m.priceInputPerMTok,
    output: m.priceOutputPerMTok,
    cacheRead: m.priceCacheReadPerMTok,
    cacheWrite: m.priceCacheWritePerMTok,
  })
}
