import type { AgreementSummary } from '../../../../shared/contract/agreement'
import { agreementWord, formatFigure, formatPercent } from './format'

function Figure(props: { label: string; value: string; word?: string; title: string }) {
  return (
    <div className="agr-figure" title={props.title}>
      <div className="agr-figure-label">{props.label}</div>
      <div className="agr-figure-value" data-testid={`figure-${props.label}`}>
        {props.value}
      </div>
      {props.word && <div className="agr-figure-word">{props.word}</div>}
    </div>
  )
}

/** Inter-annotator agreement for the dataset, per annotator pair and per answer variant. */
export function SummaryPanel({ summary }: { summary: AgreementSummary }) {
  const variants = Object.entries(summary.byVariant)
  if (summary.n === 0)
    return (
      <section className="agr-summary">
        <p className="agr-hint">
          No target has labels from two annotators yet, so there is no agreement to measure.
        </p>
      </section>
    )
  return (
    <section className="agr-summary" aria-label="Agreement summary">
      <div className="agr-figures">
        <Figure
          label="Targets"
          value={String(summary.n)}
          title="Targets labelled by at least two annotators"
        />
        <Figure
          label="Percent agreement"
          value={formatPercent(summary.percent)}
          title="Share of annotator pairs on the same target that gave the same verdict"
        />
        <Figure
          label="Fleiss’ κ"
          value={formatFigure(summary.fleissKappa)}
          word={agreementWord(summary.fleissKappa)}
          title="Agreement beyond chance across all annotators"
        />
        <Figure
          label={`Krippendorff’s α (${summary.alphaLevel})`}
          value={formatFigure(summary.krippendorffAlpha)}
          word={agreementWord(summary.krippendorffAlpha)}
          title="Agreement beyond chance; tolerates missing labels"
        />
      </div>
      <div className="agr-tables">
        <table className="agr-table" aria-label="Cohen's kappa per pair">
          <caption>Cohen’s κ per annotator pair</caption>
          <thead>
            <tr>
              <th>Pair</th>
              <th>Shared targets</th>
              <th>κ</th>
            </tr>
          </thead>
          <tbody>
            {summary.cohenPairs.map((p) => (
              <tr key={`${p.a}|${p.b}`}>
                <td>
                  {p.a} · {p.b}
                </td>
                <td>{p.n}</td>
                <td>
                  {formatFigure(p.kappa)} <span className="agr-hint">{agreementWord(p.kappa)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {variants.length > 0 && (
          <table className="agr-table" aria-label="Agreement by variant">
            <caption>By answer variant</caption>
            <thead>
              <tr>
                <th>Variant</th>
                <th>Targets</th>
                <th>Agreement</th>
                <th>Fleiss’ κ</th>
                <th>α</th>
              </tr>
            </thead>
            <tbody>
              {variants.map(([name, v]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td>{v.n}</td>
                  <td>{formatPercent(v.percent)}</td>
                  <td>{formatFigure(v.fleissKappa)}</td>
                  <td>{formatFigure(v.krippendorffAlpha)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  )
}
