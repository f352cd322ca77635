import type { Dashboard } from '../../../../shared/contract/projects'
import { kappaNote } from '../../../../shared/smallSample'
import { PackageWriter } from './PackagesPanel'

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`)
const num = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d))
/** κ with its small-sample rule: over too few shared targets the number is not worth reading. */
const kappaCell = (k: number | null, n: number) => kappaNote(n) || num(k)
const hours = (h: number) => (h < 1 ? `${Math.round(h * 60)} min` : `${h.toFixed(1)} h`)

/** Progress, per annotator and per variant, agreement and packages: the lead's figures. */
export function DashboardTables({ d, onChanged }: { d: Dashboard; onChanged(): void }) {
  const share = d.labelsWanted === 0 ? 0 : d.labelsTowardsK / d.labelsWanted
  return (
    <>
      <section className="card" aria-label="Progress">
        <h2>Progress</h2>
        <p data-testid="project-progress">
          {d.complete} of {d.targets} targets have their {d.plan.k} label{d.plan.k > 1 ? 's' : ''} ·{' '}
          {d.labelsTowardsK} of {d.labelsWanted} labels ({pct(share)}) · {hours(d.activeHours)} of active time
          {share >= 1 && <> · every target has its labels</>}
          {share < 1 && d.projectedHours !== null && (
            <> · about {hours(d.projectedHours)} left at the current pace</>
          )}
          {share < 1 && d.projectedFinish !== null && d.labelsPerDay > 0 && (
            <>
              {' '}
              · {Math.round(d.labelsPerDay)} labels a day this week: done around {d.projectedFinish}
            </>
          )}
        </p>
        <progress max={1} value={share} aria-label="Labels towards k" />
        <table className="data-table">
          <thead>
            <tr>
              <th>Variant</th>
              <th>Targets</th>
              <th>At k</th>
            </tr>
          </thead>
          <tbody>
            {d.byVariant.map((v) => (
              <tr key={v.variant}>
                <td>{v.variant}</td>
                <td>{v.targets}</td>
                <td>{v.complete}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" aria-label="Annotators">
        <h2>Annotators</h2>
        <table className="data-table" data-testid="project-annotators">
          <thead>
            <tr>
              <th>Annotator</th>
              <th>Labels</th>
              <th title="Labels placed by hand on targets that already had k">Past k</th>
              <th>Progress</th>
              <th>Median s / label</th>
              <th>κ with adjudicated gold</th>
              <th>Control accuracy (95% CI)</th>
              <th>Active time</th>
              <th>Cost</th>
            </tr>
          </thead>
          <tbody>
            {d.annotators.map((a) => (
              <tr key={a.annotatorId} data-annotator={a.name}>
                <td>{a.name}</td>
                <td>{a.labels}</td>
                <td>{a.overK}</td>
                <td>{a.assigned === null ? '—' : `${a.assignedDone} / ${a.assigned}`}</td>
                <td>{num(a.medianSeconds, 1)}</td>
                <td>{a.goldShared === 0 ? '—' : kappaCell(a.kappaWithGold, a.goldShared)}</td>
                <td data-testid="control-accuracy">
                  {a.controls.answered === 0
                    ? '—'
                    : `${pct(a.controls.accuracy)} (${a.controls.correct}/${a.controls.answered}; ${pct(a.controls.interval?.low ?? null)}–${pct(a.controls.interval?.high ?? null)})`}
                </td>
                <td>{hours(a.activeSeconds / 3600)}</td>
                <td>{a.cost === null ? '—' : `$${a.cost.toFixed(2)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {d.byVariant.length > 0 && d.annotators.length > 0 && (
          <table
            className="data-table"
            aria-label="Progress per annotator and variant"
            data-testid="project-annotator-variants"
          >
            <thead>
              <tr>
                <th>Annotator</th>
                {d.byVariant.map((v) => (
                  <th key={v.variant}>{v.variant}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {d.annotators.map((a) => (
                <tr key={a.annotatorId} data-annotator={a.name}>
                  <td>{a.name}</td>
                  {a.byVariant.map((v) => (
                    <td key={v.variant} data-variant={v.variant}>
                      {v.assigned === null ? v.labels : `${v.labels} / ${v.assigned}`}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {d.pairwiseKappa.length > 0 && (
          <table className="data-table" aria-label="Pairwise agreement">
            <thead>
              <tr>
                <th>Pair</th>
                <th>Shared targets</th>
                <th>Cohen's κ</th>
              </tr>
            </thead>
            <tbody>
              {d.pairwiseKappa.map((p) => (
                <tr key={`${p.a}|${p.b}`}>
                  <td>
                    {p.a} · {p.b}
                  </td>
                  <td>{p.n}</td>
                  <td>{kappaCell(p.kappa, p.n)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-label="Packages">
        <h2>Packages</h2>
        <PackageWriter plan={d.plan} onWritten={onChanged} />
        {d.packages.length === 0 ? (
          <p className="muted">No package handed out yet (CLI: factlab package).</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th>Annotator</th>
                <th>Targets</th>
                <th>Out</th>
                <th>Back</th>
                <th>Labels back</th>
              </tr>
            </thead>
            <tbody>
              {d.packages.map((p) => (
                <tr key={p.id}>
                  <td>{p.annotator}</td>
                  <td>{p.targets}</td>
                  <td>{p.createdAt.slice(0, 16).replace('T', ' ')}</td>
                  <td>{p.returnedAt ? p.returnedAt.slice(0, 16).replace('T', ' ') : 'not yet'}</td>
                  <td>{p.labelsBack}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  )
}
