import type { CohenPair, PairKind } from '../../shared/contract/agreement'

/**
 * How a pair of annotators reads once the dataset's own reference labels (sources) are told
 * apart from people: its kind, and the person first in a person–source pair, so `ana ·
 * wikievalfacts` never reads as `wikievalfacts · ana`. Both agreement passes name pairs through
 * here, so they list them alike.
 */
export function pairOf(
  a: string,
  b: string,
  aSource: boolean,
  bSource: boolean,
): { a: string; b: string; kind: PairKind } {
  if (aSource && bSource) return { a, b, kind: 'sources' }
  if (aSource) return { a: b, b: a, kind: 'person-source' }
  if (bSource) return { a, b, kind: 'person-source' }
  return { a, b, kind: 'people' }
}

/** Each person against the release first, then the release's annotators against each other. */
export function groupSourcePairs(pairs: readonly CohenPair[]): CohenPair[] {
  return [...pairs.filter((p) => p.kind === 'person-source'), ...pairs.filter((p) => p.kind === 'sources')]
}
