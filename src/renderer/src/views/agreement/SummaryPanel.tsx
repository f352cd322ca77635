import type { AgreementSummary } from '../../../../shared/contract/agreement'
import { PairTable, ScopeFigures, VariantTable } from './agreementParts'
import { ReleasePanel } from './ReleasePanel'

/** Inter-annotator agreement among people, per pair and per answer variant; the release's apart. */
export function SummaryPanel({ summary }: { summary: AgreementSummary }) {
  const min = summary.minSharedTargets
  const withRelease = summary.sourcePairs.length > 0 || summary.amongSources !== null
  if (summary.n === 0)
    return (
      <section className="agr-summary">
        <p className="agr-hint">
          No target has labels from two people yet, so there is no agreement among people to measure.
        </p>
        <ReleasePanel summary={summary} />
      </section>
    )
  return (
    <section className="agr-summary" aria-label="Agreement summary">
      {withRelease && <h3>Among people</h3>}
      <ScopeFigures
        scope={summary}
        alphaLevel={summary.alphaLevel}
        min={min}
        who={withRelease ? 'people (the release’s own labels are not counted)' : 'people'}
        testId="figure-"
        label="Agreement among people"
      />
      <div className="agr-tables">
        <PairTable
          pairs={summary.cohenPairs}
          kind="people"
          min={min}
          label="Cohen's kappa per pair"
          caption="Cohen’s κ per pair of people"
        />
        <VariantTable
          byVariant={summary.byVariant}
          min={min}
          label="Agreement by variant"
          caption="By answer variant"
          testId=""
        />
      </div>
      <ReleasePanel summary={summary} />
    </section>
  )
}
