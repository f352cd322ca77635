import type { AgreementFigures } from './contract/agreement'
import type { DatasetMetrics, Figures } from './contract/metrics'
import { costSplitJson } from './costSplit'
import { itemLevelJson } from './itemLevelJson'
import { refcheckerJson } from './refcheckerJson'
import {
  MIN_CORRELATION_PAIRS,
  prevalenceNote,
  READ_CORRELATION_PAIRS,
  rateNote,
  tooFewPairs,
  tooFewShared,
} from './smallSample'

/**
 * The stable `metrics --json` shape (docs/metrics-json.md). snake_case, nulls for figures that
 * are not defined, intervals as [low, high]. Add fields; never rename or remove them.
 */

function figures(f: Figures) {
  return {
    n: f.n,
    judged: f.judged,
    na: f.na,
    errors: f.errors,
    na_rate: f.naRate,
    transport_error_rate: f.transportErrorRate,
    error_rate: f.errorRate,
    error_rate_ci: f.errorRateCi,
    accuracy: f.accuracy,
    f1_unsupported: f.f1Unsupported,
    f1_ci: f.f1Ci,
    kappa: f.kappa,
    error_rate_ci_method: f.errorRateCiMethod,
    f1_ci_method: f.f1CiMethod,
    // The views' and reports' small-sample mark on the rates (n under MIN_RATE_TARGETS).
    too_few_targets: f.errorRate !== null && rateNote(f.n) !== '',
  }
}

/** AC1, PABAK, prevalence and the small-sample flag of one agreement scope. */
function robust(s: AgreementFigures, min: number) {
  return {
    ac1: s.ac1,
    pabak: s.pabak,
    dominant_label: s.dominantLabel,
    dominant_share: s.dominantShare,
    too_few_shared: tooFewShared(s.n, min),
  }
}

function mapValues<T, U>(rec: Record<string, T>, fn: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, fn(v)]))
}

export function toJsonReport(m: DatasetMetrics) {
  const a = m.agreement
  const pairJson = (p: (typeof a.cohenPairs)[number]) => ({
    a: p.a,
    b: p.b,
    // people, person-source (a the person, b the release's labels) or sources (two of the release's)
    kind: p.kind,
    n: p.n,
    kappa: p.kappa,
    ac1: p.ac1,
    pabak: p.pabak,
    too_few_shared: tooFewShared(p.n, a.minSharedTargets),
  })
  const scopeJson = (v: AgreementFigures) => ({
    n: v.n,
    percent: v.percent,
    percent_ci: v.percentCi,
    percent_ci_method: v.percentCi === null ? null : 'wilson',
    fleiss_kappa: v.fleissKappa,
    krippendorff_alpha: v.krippendorffAlpha,
    ...robust(v, a.minSharedTargets),
  })
  const among = a.amongSources
  return {
    dataset: m.dataset,
    schema: m.schema,
    labels: m.labels,
    variants: m.variants,
    targets: m.targets,
    gold_targets: m.goldTargets,
    bootstrap_seed: m.seed,
    agreement: {
      n: a.n,
      percent: a.percent,
      percent_ci: a.percentCi,
      percent_ci_method: a.percentCi === null ? null : 'wilson',
      cohen_pairs: a.cohenPairs.map(pairJson),
      // A person against the release's labels (a source), then two of the release's annotators:
      // apart from the people's figures above.
      source_pairs: a.sourcePairs.map(pairJson),
      // The release's annotators among themselves (what a benchmark's paper reports), never mixed
      // into the people's figures; null with fewer than two sources.
      among_sources:
        among === null
          ? null
          : {
              annotators: among.names,
              ...scopeJson(among),
              prevalence_note: prevalenceNote(among.dominantLabel, among.dominantShare),
              by_variant: mapValues(among.byVariant, scopeJson),
            },
      fleiss_kappa: a.fleissKappa,
      krippendorff_alpha: a.krippendorffAlpha,
      ...robust(a, a.minSharedTargets),
      min_shared_targets: a.minSharedTargets,
      prevalence_note: prevalenceNote(a.dominantLabel, a.dominantShare),
      by_variant: mapValues(a.byVariant, scopeJson),
    },
    judges: m.judges.map((j) => ({
      run: j.runId,
      label: j.label,
      provider: j.provider,
      model: j.model,
      method: j.method,
      status: j.status,
      repeat_index: j.repeatIndex,
      mode: j.mode,
      ...figures(j),
      per_class: {
        supported: j.perClass.supported,
        unsupported: j.perClass.unsupported,
      },
      confusion: { binary: j.confusion.binary, labels: j.confusion.labels, full: j.confusion.full },
      by_variant: mapValues(j.byVariant, figures),
      calls: j.calls,
      // Of the calls, those a provider batch answered at its price: fewer than `calls` when a run changed mode.
      batch_calls: j.batchCalls,
      prompt_tokens: j.promptTokens,
      completion_tokens: j.completionTokens,
      // Of the prompt tokens, those read from and written to the provider's prompt cache.
      cache_read_tokens: j.cacheReadTokens,
      cache_write_tokens: j.cacheWriteTokens,
      cost: j.cost,
      cost_basis: j.costBasis,
      // The tokens by the price each was paid at and their money (null where no price is known): they add up to `cost`.
      cost_split: costSplitJson(j.costSplit),
      // Over the targets given a verdict (N/A and transport errors not counted): judgeRates.ts.
      cost_per_1000: j.costPer1000,
      cost_per_1000_of: j.costUnit,
      // Every answer came from the response cache: 0 calls and $0 replay another run, they are not its price.
      answered_from_cache: j.answeredFromCache,
      wall_seconds: j.wallSeconds,
      latency_p50_ms: j.latencyP50,
      latency_p95_ms: j.latencyP95,
      refchecker_macro: j.refchecker,
      rai: j.rai.map((r) => ({
        round: r.round,
        inconsistent: r.inconsistent,
        corrected: r.corrected,
        rate: r.rate,
        rate_ci: r.rateCi,
        rate_ci_method: r.rateCi === null ? null : 'wilson',
        failed: r.failed,
        unscored: r.unscored,
        originals: r.originals,
        corrected_so_far: r.correctedSoFar,
        cumulative_rate: r.cumulativeRate,
        cumulative_ci: r.cumulativeCi,
        cumulative_ci_method: r.cumulativeCi === null ? null : 'wilson',
      })),
    })),
    humans: m.humans.map((h) => ({
      annotator: h.annotator,
      // A dataset's own reference labels (a source), named "(reference labels)" wherever shown.
      source: h.source,
      ...figures(h),
      by_variant: mapValues(h.byVariant, figures),
      // The person's own active hours on the targets the judges are scored on × their hourly rate.
      active_seconds: h.activeSeconds ?? null,
      labelled: h.labelled ?? null,
      // Of those, the labels that carry a time: cost_per_1000 is over these (untimed = labelled − timed).
      timed_labels: h.timedLabels ?? null,
      cost: h.cost ?? null,
      cost_per_1000: h.costPer1000 ?? null,
    })),
    correlations: m.correlations.map((c) => ({
      run: c.runId,
      label: c.label,
      level: c.level,
      against: c.against,
      n: c.n,
      pearson: c.pearson,
      spearman: c.spearman,
      kendall_tau_b: c.kendallTauB,
      auroc: c.auroc,
      auroc_cut: c.aurocCut,
      // The views' small-sample mark; the figures themselves are null under min_pairs.
      too_few_pairs: tooFewPairs(c.n),
    })),
    correlation_min_pairs: MIN_CORRELATION_PAIRS,
    correlation_min_pairs_to_read: READ_CORRELATION_PAIRS,
    repeat_spread: m.spreads.map((s) => ({
      config: s.configKey,
      mode: s.mode,
      label: s.label,
      runs: s.runIds,
      /** Answered wholly from the response cache: replays of an earlier run, not in the figure. */
      replays_left_out: s.replays,
      error_rate: s.errorRate,
    })),
    mcnemar: m.mcnemar.map((r) => ({
      a: r.a,
      b: r.b,
      n: r.n,
      a_only_right: r.aOnly,
      b_only_right: r.bOnly,
      p_value: r.pValue,
    })),
    gold_refchecker_macro: m.goldRefchecker,
    refchecker: refcheckerJson(m),
    pareto_front: m.paretoFront,
    item_level: m.itemLevel ? itemLevelJson(m.itemLevel) : null,
  }
}

export type JsonReport = ReturnType<typeof toJsonReport>
