import type { ItemCorrelationRow, ItemLevel, SummaryLevelRow } from './contract/itemLevel'
import { atBound, MIN_CORRELATION_PAIRS, READ_CORRELATION_PAIRS, tooFewPairs } from './smallSample'

/** The `item_level` block of `metrics --json` (docs/metrics-json.md), snake_case like the rest. */

/** Coefficients at exactly ±1, whose interval is null because none can be defined there. */
function undefinedAtBound(c: {
  pearson: number | null
  spearman: number | null
  kendallTauB: number | null
}) {
  return (
    [
      ['pearson', c.pearson],
      ['spearman', c.spearman],
      ['kendall_tau_b', c.kendallTauB],
    ] as const
  )
    .filter(([, r]) => atBound(r))
    .map(([name]) => name)
}

function correlation(c: ItemCorrelationRow) {
  return {
    n: c.n,
    pearson: c.pearson,
    pearson_ci: c.pearsonCi,
    spearman: c.spearman,
    spearman_ci: c.spearmanCi,
    kendall_tau_b: c.kendallTauB,
    kendall_tau_b_ci: c.kendallTauBCi,
    ci_method: c.ciMethod,
    // A reader of the JSON gets the views' mark too: a 0.9 over six responses is not a 0.9.
    too_few_items: tooFewPairs(c.n),
    ci_undefined_at_bound: undefinedAtBound(c),
  }
}

/** DCR's Table 3 level: per item, correlated across its responses, then averaged over items. */
function summary(s: SummaryLevelRow) {
  return {
    items: s.items,
    left_out: s.leftOut,
    pearson: s.pearson,
    pearson_ci: s.pearsonCi,
    spearman: s.spearman,
    spearman_ci: s.spearmanCi,
    kendall_tau_b: s.kendallTauB,
    kendall_tau_b_ci: s.kendallTauBCi,
    // Documents resampled (the items averaged); null with no interval.
    ci_method: s.ciMethod,
    too_few_items: tooFewPairs(s.items),
    ci_undefined_at_bound: undefinedAtBound(s),
  }
}

/** Across variants (systems): its pairs are systems, so its small-sample flag says so. */
function systemLevel(c: ItemCorrelationRow) {
  const line = correlation(c)
  // too_few_items is kept (deprecated) for readers written before too_few_systems existed.
  return { ...line, systems: c.n, too_few_systems: line.too_few_items }
}

export function itemLevelJson(l: ItemLevel) {
  return {
    bootstrap_replicates: l.replicates,
    min_items: MIN_CORRELATION_PAIRS,
    min_items_to_read: READ_CORRELATION_PAIRS,
    score_definitions: l.definitions,
    items: l.items.map((i) => ({
      candidate: i.candidateId,
      item: i.itemId,
      ext_id: i.extId,
      variant: i.variant,
    })),
    series: l.series.map((s) => ({
      source: s.source,
      run: s.runId,
      annotator: s.annotator,
      label: s.label,
      unit_kind: s.unitKind,
      score: s.score,
      values: s.values,
      units: s.units,
      unmarked: s.unmarked,
      response_labels: s.responseLabels,
    })),
    correlations: l.correlations.map((c) => ({
      source: c.source,
      run: c.runId,
      annotator: c.annotator,
      label: c.label,
      unit_kind: c.unitKind,
      score: c.score,
      human_score: c.humanScore,
      human_unit_kind: c.humanUnitKind,
      // Pooled: every response is one pair (the fields at this level, as before).
      level: 'pooled',
      ...correlation(c.overall),
      summary_level: summary(c.summaryLevel),
      system_level: systemLevel(c.systemLevel),
      by_variant: Object.fromEntries(Object.entries(c.byVariant).map(([k, v]) => [k, correlation(v)])),
    })),
  }
}
