import type { DatasetMetrics } from './contract/metrics'
import type { RefFigures, RefSource } from './contract/refchecker'
import { REFCHECKER_NA_WORDS } from './refcheckerNa'

/** `metrics --json` shape of RefChecker's evaluation (docs/metrics-json.md). */
function figures(f: RefFigures) {
  return {
    responses: f.responses,
    abstentions: f.abstentions,
    abstention_rate: f.abstentionRate,
    abstention_ci: f.abstentionCi,
    abstention_ci_method: f.abstentionCiMethod,
    judged: f.judged,
    triplets: f.triplets,
    macro: f.macro,
    macro_ci: f.macroCi,
    macro_ci_method: f.macroCiMethod,
    micro: f.micro,
    micro_ci: f.microCi,
    micro_ci_method: f.microCiMethod,
    hallucination_rate: f.hallucinationRate,
    hallucination_ci: f.hallucinationCi,
    hallucination_ci_method: f.hallucinationCiMethod,
    strict: f.strict,
  }
}

function source(s: RefSource) {
  return {
    ...figures(s),
    by_variant: Object.fromEntries(Object.entries(s.byVariant).map(([k, v]) => [k, figures(v)])),
  }
}

export function refcheckerJson(m: DatasetMetrics) {
  const e = m.refcheckerEval
  if (!e) return null
  return {
    na_rule: e.naRule,
    na_rule_words: REFCHECKER_NA_WORDS[e.naRule],
    human: source(e.human),
    judges: e.judges.map((j) => ({
      run: j.runId,
      label: j.label,
      ...source(j),
      na_triplets: j.naTriplets,
      triplets_compared: j.tripletsCompared,
      triplet_error_rate: j.tripletErrorRate,
      triplet_error_ci: j.tripletErrorCi,
      triplet_error_ci_method: j.tripletErrorCiMethod,
      // Three-way, over the same triplets: the RefChecker paper's checker scores.
      triplet_accuracy: j.tripletAccuracy,
      triplet_macro_f1: j.tripletMacroF1,
      triplet_f1: j.tripletF1,
    })),
  }
}
