import type { ItemCorrelationRow, ItemLevel } from './contract/itemLevel'

/** The `item_level` block of `metrics --json` (docs/metrics-json.md), snake_case like the rest. */

function correlation(c: ItemCorrelationRow) {
  return {
    n: c.n,
    pearson: c.pearson,
    pearson_ci: c.pearsonCi,
    spearman: c.spearman,
    spearman_ci: c.spearmanCi,
    kendall_tau_b: c.kendallTauB,
    kendall_tau_b_ci: c.kendallTauBCi,
  }
}

export function itemLevelJson(l: ItemLevel) {
  return {
    bootstrap_replicates: l.replicates,
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
      ...correlation(c.overall),
      by_variant: Object.fromEntries(Object.entries(c.byVariant).map(([k, v]) => [k, correlation(v)])),
    })),
  }
}
