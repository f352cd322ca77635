import type { CallOutput } from '../../../../shared/contract'
import { countOf, verdictsWords } from '../../../../shared/plural'

type Report = CallOutput<'judges.importVerdicts'>

/** What a verdict import made: its run, or with several files each file's run, and the rows skipped. */
export function VerdictsImported({ report }: { report: Report }) {
  const runs = report.runs
  return (
    <>
      {runs ? (
        <>
          <p className="success-text" role="status">
            Imported {countOf(runs.length, 'run')}, {countOf(report.verdicts, 'verdict')} in all
            {report.na > 0 ? `, ${report.na} of them N/A` : ''}. They are listed under Runs and compared with
            people in Compare.
          </p>
          <ul aria-label="Runs imported">
            {runs.map((r) => {
              const skipped = report.skipped.filter((s) => s.file === r.file).length
              return (
                <li key={r.runId}>
                  {r.file}: run {r.runId} “{r.model}”, {verdictsWords(r.verdicts, r.na)}
                  {skipped > 0 ? `, ${countOf(skipped, 'row')} skipped` : ''}
                </li>
              )
            })}
          </ul>
        </>
      ) : (
        <p className="success-text" role="status">
          Imported run {report.runId}: {verdictsWords(report.verdicts, report.na)}. It is listed under Runs
          and compared with people in Compare.
        </p>
      )}
      {report.skipped.length > 0 && (
        <details open>
          <summary>{countOf(report.skipped.length, 'row was', 'rows were')} skipped</summary>
          <ul className="skipped" aria-label="Skipped rows">
            {report.skipped.map((s) => (
              <li key={`${s.file ?? ''}:${s.at}`}>
                {s.file ? `${s.file}, ` : ''}
                {s.at}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  )
}
