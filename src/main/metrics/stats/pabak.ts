/**
 * Prevalence- and bias-adjusted κ (Byrt, Bishop & Carlin 1993): κ with chance agreement fixed
 * at 1/q, i.e. (q·p_o − 1)/(q − 1); with two categories, 2·p_o − 1. It is a plain rescaling of
 * observed agreement, which is the point: it cannot be dragged down by a lopsided prevalence.
 */
export function pabak(observedAgreement: number | null, categories: number): number | null {
  if (observedAgreement === null || !Number.isFinite(observedAgreement) || categories < 2) return null
  return (categories * observedAgreement - 1) / (categories - 1)
}
