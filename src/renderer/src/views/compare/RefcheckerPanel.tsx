import { useEffect, useState } from 'react'
import { type DatasetMetrics, fmtNum, fmtPct, fmtPctCi } from '../../../../shared/contract/metrics'
import type { RefcheckerEval, RefFigures, RefJudge } from '../../../../shared/contract/refchecker'
import { countOf } from '../../../../shared/plural'
import { responsesWords } from '../../../../shared/refcheckerExtractors'
import {
  DEFAULT_REFCHECKER_NA,
  REFCHECKER_NA_RULES,
  REFCHECKER_NA_WORDS,
  type RefcheckerNaRule,
} from '../../../../shared/refcheckerNa'
import { ciTitle } from '../../../../shared/smallSample'
import { api } from '../../api'

const dist = (d: RefFigures['macro']) =>
  d ? `${fmtPct(d.entailment)} / ${fmtPct(d.neutral)} / ${fmtPct(d.contradiction)}` : '—'

/** One stacked bar of entailment / neutral / contradiction shares, for reading rows at a glance. */
function Bar({ d }: { d: RefFigures['macro'] }) {
  if (!d) return null
  const parts: [string, number, string][] = [
    ['entailment', d.entailment, 'var(--yes, #2f8f4e)'],
    ['neutral', d.neutral, 'var(--text-2, #888)'],
    ['contradiction', d.contradiction, 'var(--no, #c0392b)'],
  ]
  let x = 0
  return (
    <svg width="120" height="10" role="img" aria-label={`macro ${dist(d)}`}>
      {parts.map(([name, share, colour]) => {
        const w = share * 120
        const rect = <rect key={name} x={x} y={0} width={w} height={10} fill={colour} />
        x += w
        return rect
      })}
    </svg>
  )
}

interface ErrorCell {
  text: string
  title: string
}

/** The checker's three-way scores against the humans (the RefChecker paper's figure). */
const threeWay = (j: RefJudge) => ({
  accuracy: fmtPct(j.tripletAccuracy),
  macroF1: fmtNum(j.tripletMacroF1),
  title:
    j.tripletF1 === null
      ? 'No triplet both labelled'
      : `F1 per class over ${countOf(j.tripletsCompared, 'triplet')}: entailment ${fmtNum(j.tripletF1.entailment)}, neutral ${fmtNum(j.tripletF1.neutral)}, contradiction ${fmtNum(j.tripletF1.contradiction)} (a class neither side used is left out of the macro average)`,
})

function Row({
  name,
  f,
  error,
  judge,
  na,
  pooled,
}: {
  name: string
  f: RefFigures
  /** The variants an overall row pools: several extractors make its count candidates, not responses. */
  pooled?: readonly string[]
  error?: ErrorCell
  judge?: RefJudge
  na?: number
}) {
  const three = judge ? threeWay(judge) : null
  return (
    <tr>
      <td>{name}</td>
      <td>
        {f.abstentions} of {responsesWords(f.responses, pooled ?? [])}{' '}
        <span className="cmp-sub">({fmtPct(f.abstentionRate)})</span>
      </td>
      <td>{f.judged}</td>
      <td>{na ?? '—'}</td>
      <td>
        <Bar d={f.macro} /> {dist(f.macro)}
      </td>
      <td>{dist(f.micro)}</td>
      <td title={ciTitle(f.hallucinationCiMethod, f.judged)}>
        {fmtPctCi(f.hallucinationRate, f.hallucinationCi)}
      </td>
      <td>
        {f.strict.entailment} / {f.strict.neutral} / {f.strict.contradiction}
      </td>
      <td title={error?.title}>{error?.text ?? '—'}</td>
      <td title={three?.title}>{three?.accuracy ?? '—'}</td>
      <td title={three?.title}>{three?.macroF1 ?? '—'}</td>
    </tr>
  )
}

/**
 * RefChecker's evaluation for triplet datasets: the human labels' distributions and response-level
 * figures, each checker run beside them, overall or for one variant (a model, for the release).
 */
export function RefcheckerPanel({ metrics: m }: { metrics: DatasetMetrics }) {
  const [rule, setRule] = useState<RefcheckerNaRule>(m.refcheckerEval?.naRule ?? DEFAULT_REFCHECKER_NA)
  const [other, setOther] = useState<{ from: DatasetMetrics; eval: RefcheckerEval } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [variant, setVariant] = useState<string>('')
  // The view's figures hold the default rule; the other is asked for when chosen, and dropped
  // with the figures it was read beside.
  const shown = m.refcheckerEval?.naRule === rule ? m.refcheckerEval : other?.from === m ? other.eval : null
  useEffect(() => {
    if (!m.refcheckerEval || m.refcheckerEval.naRule === rule) return
    let live = true
    setError(null)
    api('metrics.compare', { datasetId: m.datasetId, seed: m.seed, refcheckerNa: rule })
      .then((r) => {
        if (live && r.refcheckerEval) setOther({ from: m, eval: r.refcheckerEval })
      })
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)))
    return () => {
      live = false
    }
  }, [m, rule])
  const e = shown ?? m.refcheckerEval
  if (!e) return null
  const pick = (s: RefFigures & { byVariant: Record<string, RefFigures> }) =>
    variant === '' ? s : (s.byVariant[variant] ?? null)
  const human = pick(e.human)
  return (
    <section data-testid="refchecker-panel">
      <h2>RefChecker evaluation</h2>
      <p className="cmp-hint">
        Responses with no triplets abstain: they are counted and left out of the rest. Macro averages each
        response's shares; micro pools all triplets. A response hallucinates when any triplet is a
        contradiction; its strict label is contradiction if any, else neutral if any, else entailment.
      </p>
      <label className="cmp-filters">
        Checker N/A{' '}
        <select
          value={rule}
          onChange={(ev) => setRule(ev.target.value as RefcheckerNaRule)}
          aria-label="What a checker N/A counts as"
        >
          {REFCHECKER_NA_RULES.map((r) => (
            <option key={r} value={r}>
              {REFCHECKER_NA_WORDS[r]}
            </option>
          ))}
        </select>
      </label>{' '}
      <label className="cmp-filters">
        Variant{' '}
        <select
          value={variant}
          onChange={(ev) => setVariant(ev.target.value)}
          aria-label="RefChecker variant"
        >
          <option value="">all responses</option>
          {Object.keys(e.human.byVariant).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <p className="cmp-hint" data-testid="refchecker-na-rule">
        {shown ? `Shares below: ${REFCHECKER_NA_WORDS[e.naRule]}.` : 'Working the shares out again…'} The N/A
        column counts each checker's triplets whose label could not be read, over all responses.
        {error && <span className="error-text"> {error}</span>}
      </p>
      <div className="table-frame">
        <table className="cmp-table" data-testid="refchecker-table" aria-label="RefChecker evaluation">
          <thead>
            <tr>
              <th className="cmp-plain-th">Source</th>
              <th className="cmp-plain-th">Abstained</th>
              <th className="cmp-plain-th">Judged responses</th>
              <th className="cmp-plain-th">Checker N/A</th>
              <th className="cmp-plain-th">Macro E / N / C</th>
              <th className="cmp-plain-th">Micro E / N / C</th>
              <th className="cmp-plain-th">Hallucinated [95% CI]</th>
              <th className="cmp-plain-th">Strict E / N / C</th>
              <th className="cmp-plain-th">Per-triplet error vs humans</th>
              <th className="cmp-plain-th" title="Three-way: entailment / neutral / contradiction">
                Accuracy vs humans
              </th>
              <th className="cmp-plain-th" title="Three-way, averaged over the classes either side used">
                Macro-F1 vs humans
              </th>
            </tr>
          </thead>
          <tbody>
            {human && (
              <Row
                name="human labels"
                f={human}
                pooled={variant === '' ? Object.keys(e.human.byVariant) : undefined}
              />
            )}
            {e.judges.map((j) => {
              const f = pick(j)
              return f ? (
                <Row
                  key={j.runId}
                  name={j.label}
                  f={f}
                  judge={j}
                  na={j.naTriplets}
                  pooled={variant === '' ? Object.keys(j.byVariant) : undefined}
                  error={{
                    text: `${fmtPctCi(j.tripletErrorRate, j.tripletErrorCi)} (n ${j.tripletsCompared})`,
                    title: ciTitle(j.tripletErrorCiMethod, j.tripletsCompared),
                  }}
                />
              ) : null
            })}
          </tbody>
        </table>
      </div>
    </section>
  )
}
