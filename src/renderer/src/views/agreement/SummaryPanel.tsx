import type { AgreementSummary, CohenPair } from '../../../../shared/contract/agreement'
import { fmtCi } from '../../../../shared/contract/metrics'
import { formatCount } from '../../../../shared/plural'
import { agreementReading, DOMINANT_SHARE, kappaNote, prevalenceNote } from '../../../../shared/smallSample'
import { formatFigure, formatPercent } from './format'

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

/**
 * A coefficient in a table with its small-sample mark: the words for a pair (one row each, room
 * to spare), an asterisk explained under the table for the wider by-variant rows. Every
 * coefficient takes it, since AC1 and PABAK over three targets are no steadier than κ.
 */
function Coefficient(props: { value: number | null; n: number; min: number; star?: boolean }) {
  const note = kappaNote(props.n, props.min)
  if (note === '') return <td>{formatFigure(props.value)}</td>
  return (
    <td title={note} data-too-few="">
      {formatFigure(props.value)}
      {props.star ? ' *' : <span className="agr-hint"> {note}</span>}
    </td>
  )
}

/**
 * Percent agreement with its 95% Wilson interval over the shared targets, marked as every
 * coefficient beside it is where those targets are too few (a star in the by-variant table).
 */
function percentWords(percent: number | null, ci: [number, number] | null, n: number, min: number) {
  const interval = ci === null ? '' : `95% CI ${fmtCi(ci)} · `
  const note = kappaNote(n, min)
  return {
    value: formatPercent(percent),
    word: `${interval}${note === '' ? `n ${formatCount(n)}` : note}`,
    note,
  }
}

function PercentCell(props: { percent: number | null; ci: [number, number] | null; n: number; min: number }) {
  const p = percentWords(props.percent, props.ci, props.n, props.min)
  const title = `${p.word}: 95% Wilson score interval over the shared targets`
  return (
    <td title={title} data-too-few={p.note === '' ? undefined : ''}>
      {p.value}
      {props.ci && <span className="agr-hint"> [{fmtCi(props.ci)}]</span>}
      {p.note === '' ? '' : ' *'}
    </td>
  )
}

/** Cohen's κ, AC1 and PABAK per pair, with the strength word or the small-sample mark. */
function PairTable(props: { pairs: CohenPair[]; min: number; label: string; caption: string }) {
  return (
    <table className="agr-table" aria-label={props.label}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th>Pair</th>
          <th>Shared targets</th>
          <th>κ</th>
          <th>AC1</th>
          <th>PABAK</th>
        </tr>
      </thead>
      <tbody>
        {props.pairs.map((p) => (
          <tr key={`${p.a}|${p.b}`}>
            <td>
              {p.a} · {p.b}
            </td>
            <td>{formatCount(p.n)}</td>
            <td>
              {formatFigure(p.kappa)}{' '}
              <span className="agr-hint">{agreementReading(p.kappa, p.n, props.min)}</span>
            </td>
            <Coefficient value={p.ac1} n={p.n} min={props.min} />
            <Coefficient value={p.pabak} n={p.n} min={props.min} />
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * Each person against the dataset's own reference labels (a source): useful, but apart — the
 * figures above are people's alone, as the README promises.
 */
function SourcePairs({ summary }: { summary: AgreementSummary }) {
  if (summary.sourcePairs.length === 0) return null
  return (
    <div className="agr-tables" data-testid="source-pairs">
      <PairTable
        pairs={summary.sourcePairs}
        min={summary.minSharedTargets}
        label="Agreement with the release's labels"
        caption="Agreement with the release’s labels (not counted in the figures above)"
      />
    </div>
  )
}

/** Inter-annotator agreement among people, per pair and per answer variant; sources apart. */
export function SummaryPanel({ summary }: { summary: AgreementSummary }) {
  const variants = Object.entries(summary.byVariant)
  const min = summary.minSharedTargets
  const word = (value: number | null, n: number) => agreementReading(value, n, min)
  const note = prevalenceNote(summary.dominantLabel, summary.dominantShare)
  const dominated = (v: { dominantShare: number | null }) => (v.dominantShare ?? 0) >= DOMINANT_SHARE
  if (summary.n === 0)
    return (
      <section className="agr-summary">
        <p className="agr-hint">
          No target has labels from two people yet, so there is no agreement to measure.
        </p>
        <SourcePairs summary={summary} />
      </section>
    )
  return (
    <section className="agr-summary" aria-label="Agreement summary">
      <div className="agr-figures">
        <Figure
          label="Targets"
          value={String(summary.n)}
          title="Targets labelled by at least two people (the dataset’s own reference labels are not counted)"
        />
        <Figure
          label="Percent agreement"
          value={formatPercent(summary.percent)}
          word={percentWords(summary.percent, summary.percentCi, summary.n, min).word}
          title="Share of annotator pairs on the same target that gave the same verdict; the interval is Wilson’s over the shared targets"
        />
        <Figure
          label="Fleiss’ κ"
          value={formatFigure(summary.fleissKappa)}
          word={word(summary.fleissKappa, summary.n)}
          title="Agreement beyond chance across all annotators"
        />
        <Figure
          label={`Krippendorff’s α (${summary.alphaLevel})`}
          value={formatFigure(summary.krippendorffAlpha)}
          word={word(summary.krippendorffAlpha, summary.n)}
          title="Agreement beyond chance; tolerates missing labels"
        />
        {summary.alphaLevel === 'nominal' && (
          <>
            <Figure
              label="Gwet’s AC1"
              value={formatFigure(summary.ac1)}
              word={word(summary.ac1, summary.n)}
              title="Agreement beyond chance, with chance estimated so that a dominant class does not drag it down (Gwet 2008)"
            />
            <Figure
              label="PABAK"
              value={formatFigure(summary.pabak)}
              word={word(summary.pabak, summary.n)}
              title="Prevalence- and bias-adjusted κ: percent agreement rescaled with chance fixed at one over the number of labels"
            />
          </>
        )}
      </div>
      {note && (
        <p className="agr-hint" data-testid="prevalence-note">
          {note}
        </p>
      )}
      <div className="agr-tables">
        {summary.cohenPairs.length > 0 && (
          <PairTable
            pairs={summary.cohenPairs}
            min={min}
            label="Cohen's kappa per pair"
            caption="Cohen’s κ per annotator pair"
          />
        )}
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
                <th>AC1</th>
                <th>PABAK</th>
              </tr>
            </thead>
            <tbody>
              {variants.map(([name, v]) => (
                <tr key={name}>
                  <td>
                    {name}
                    {dominated(v) ? ' †' : ''}
                  </td>
                  <td>{formatCount(v.n)}</td>
                  <PercentCell percent={v.percent} ci={v.percentCi} n={v.n} min={min} />
                  <Coefficient value={v.fleissKappa} n={v.n} min={min} star />
                  <Coefficient value={v.krippendorffAlpha} n={v.n} min={min} star />
                  <Coefficient value={v.ac1} n={v.n} min={min} star />
                  <Coefficient value={v.pabak} n={v.n} min={min} star />
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {variants.some(([, v]) => dominated(v)) && (
        <p className="agr-hint" data-testid="variant-prevalence-note">
          † one label takes {Math.round(DOMINANT_SHARE * 100)}% or more of the labels: κ and α read low there
          even when people agree (the prevalence paradox); read AC1 and PABAK beside them.
        </p>
      )}
      {variants.some(([, v]) => v.n < min) && (
        <p className="agr-hint" data-testid="variant-too-few-note">
          * fewer than {min} shared targets: agreement, κ, α, AC1 and PABAK there are too few to read.
        </p>
      )}
      <SourcePairs summary={summary} />
    </section>
  )
}
