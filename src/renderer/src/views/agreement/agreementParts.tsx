import type { AgreementFigures, CohenPair } from '../../../../shared/contract/agreement'
import { fmtCi } from '../../../../shared/contract/metrics'
import { formatCount } from '../../../../shared/plural'
import { agreementReading, DOMINANT_SHARE, kappaNote, prevalenceNote } from '../../../../shared/smallSample'
import { formatFigure, formatPercent } from './format'

/**
 * The pieces of one agreement scope (the people's, or the release's annotators' among
 * themselves), so both read with the same coefficients, intervals and small-sample marks.
 */

function Figure(props: { label: string; value: string; word?: string; title: string; testId: string }) {
  return (
    <div className="agr-figure" title={props.title}>
      <div className="agr-figure-label">{props.label}</div>
      <div className="agr-figure-value" data-testid={`${props.testId}${props.label}`}>
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

/** The header cells naming a pair of each kind: who is the person, who the release. */
const PAIR_HEAD: Record<CohenPair['kind'], string[]> = {
  people: ['Pair'],
  'person-source': ['Person', 'Release’s labels'],
  sources: ['Release’s annotator', 'Release’s annotator'],
}

/** Cohen's κ, AC1 and PABAK per pair of one kind, with the strength word or the small-sample mark. */
export function PairTable(props: {
  pairs: CohenPair[]
  kind: CohenPair['kind']
  min: number
  label: string
  caption: string
}) {
  const pairs = props.pairs.filter((p) => p.kind === props.kind)
  if (pairs.length === 0) return null
  return (
    <table className="agr-table" aria-label={props.label}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {PAIR_HEAD[props.kind].map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two header cells may read alike
            <th key={i}>{h}</th>
          ))}
          <th>Shared targets</th>
          <th>κ</th>
          <th>AC1</th>
          <th>PABAK</th>
        </tr>
      </thead>
      <tbody>
        {pairs.map((p) => (
          <tr key={`${p.a}|${p.b}`}>
            {props.kind === 'people' ? (
              <td>
                {p.a} · {p.b}
              </td>
            ) : (
              <>
                <td>{p.a}</td>
                <td>{p.b}</td>
              </>
            )}
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

/** The headline figures of one scope; `who` says whose labels they count, in the tooltips. */
export function ScopeFigures(props: {
  scope: AgreementFigures
  alphaLevel: 'nominal' | 'interval'
  min: number
  who: string
  testId: string
  label: string
}) {
  const { scope, min, testId } = props
  const word = (value: number | null) => agreementReading(value, scope.n, min)
  const note = prevalenceNote(scope.dominantLabel, scope.dominantShare)
  return (
    <>
      <div className="agr-figures" data-testid={`${testId}figures`} title={props.label}>
        <Figure
          testId={testId}
          label="Targets"
          value={formatCount(scope.n)}
          title={`Targets labelled by at least two ${props.who}`}
        />
        <Figure
          testId={testId}
          label="Percent agreement"
          value={formatPercent(scope.percent)}
          word={percentWords(scope.percent, scope.percentCi, scope.n, min).word}
          title={`Share of pairs of ${props.who} on the same target that gave the same verdict; the interval is Wilson’s over the shared targets`}
        />
        <Figure
          testId={testId}
          label="Fleiss’ κ"
          value={formatFigure(scope.fleissKappa)}
          word={word(scope.fleissKappa)}
          title={`Agreement beyond chance across all ${props.who}`}
        />
        <Figure
          testId={testId}
          label={`Krippendorff’s α (${props.alphaLevel})`}
          value={formatFigure(scope.krippendorffAlpha)}
          word={word(scope.krippendorffAlpha)}
          title="Agreement beyond chance; tolerates missing labels"
        />
        {props.alphaLevel === 'nominal' && (
          <>
            <Figure
              testId={testId}
              label="Gwet’s AC1"
              value={formatFigure(scope.ac1)}
              word={word(scope.ac1)}
              title="Agreement beyond chance, with chance estimated so that a dominant class does not drag it down (Gwet 2008)"
            />
            <Figure
              testId={testId}
              label="PABAK"
              value={formatFigure(scope.pabak)}
              word={word(scope.pabak)}
              title="Prevalence- and bias-adjusted κ: percent agreement rescaled with chance fixed at one over the number of labels"
            />
          </>
        )}
      </div>
      {note && (
        <p className="agr-hint" data-testid={`${testId}prevalence-note`}>
          {note}
        </p>
      )}
    </>
  )
}

/** One scope's figures per answer variant, with the prevalence and small-sample footnotes. */
export function VariantTable(props: {
  byVariant: Record<string, AgreementFigures>
  min: number
  label: string
  caption: string
  testId: string
}) {
  const variants = Object.entries(props.byVariant)
  const { min } = props
  const dominated = (v: { dominantShare: number | null }) => (v.dominantShare ?? 0) >= DOMINANT_SHARE
  if (variants.length === 0) return null
  return (
    <div>
      <table className="agr-table" aria-label={props.label}>
        <caption>{props.caption}</caption>
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
      {variants.some(([, v]) => dominated(v)) && (
        <p className="agr-hint agr-note" data-testid={`${props.testId}variant-prevalence-note`}>
          † one label takes {Math.round(DOMINANT_SHARE * 100)}% or more of the labels: κ and α read low there
          even when annotators agree (the prevalence paradox); read AC1 and PABAK beside them.
        </p>
      )}
      {variants.some(([, v]) => v.n < min) && (
        <p className="agr-hint agr-note" data-testid={`${props.testId}variant-too-few-note`}>
          * fewer than {min} shared targets: agreement, κ, α, AC1 and PABAK there are too few to read.
        </p>
      )}
    </div>
  )
}
