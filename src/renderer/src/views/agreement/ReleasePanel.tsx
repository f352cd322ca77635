import type { AgreementSummary } from '../../../../shared/contract/agreement'
import { PairTable, ScopeFigures, VariantTable } from './agreementParts'

/**
 * The dataset's own reference labels (its sources: a release's raters, such as QAGS' workers or
 * SummEval's experts), read apart from the people's figures and never mixed into them: the
 * release's annotators among themselves first (the agreement a benchmark's paper reports), then
 * each person against them.
 */
export function ReleasePanel({ summary }: { summary: AgreementSummary }) {
  const among = summary.amongSources
  if (summary.sourcePairs.length === 0 && among === null) return null
  const min = summary.minSharedTargets
  const names =
    among?.names ??
    [...new Set(summary.sourcePairs.filter((p) => p.kind === 'person-source').map((p) => p.b))].sort()
  return (
    <section className="agr-release" data-testid="release-agreement" aria-label="The release’s own labels">
      <h3>The release’s own labels</h3>
      <p className="agr-hint">
        Labels that came with the dataset ({names.join(', ')}), not given by anyone in this workspace. They
        are never counted in the people’s agreement.
      </p>
      {among && (
        <>
          <h4>Agreement among the release’s annotators</h4>
          <ScopeFigures
            scope={among}
            alphaLevel={summary.alphaLevel}
            min={min}
            who="of the release’s annotators (no person’s labels)"
            testId="release-figure-"
            label="Agreement among the release's annotators"
          />
          <div className="agr-tables">
            <PairTable
              pairs={summary.sourcePairs}
              kind="sources"
              min={min}
              label="The release's annotators against each other"
              caption="The release’s annotators against each other"
            />
            <VariantTable
              byVariant={among.byVariant}
              min={min}
              label="Release's agreement by variant"
              caption="By answer variant"
              testId="release-"
            />
          </div>
        </>
      )}
      <div className="agr-tables" data-testid="source-pairs">
        <PairTable
          pairs={summary.sourcePairs}
          kind="person-source"
          min={min}
          label="Each person against the release's labels"
          caption="Each person against the release’s labels"
        />
      </div>
    </section>
  )
}
