import type { Dashboard } from '../../../../shared/contract/projects'
import { NO_TIME_TITLE } from '../../../../shared/humanCost'
import { countOf } from '../../../../shared/plural'
import { kappaNote, rateNote } from '../../../../shared/smallSample'
import { PackagesCard } from './PackagesPanel'
import {
  duration,
  finishWords,
  hours,
  labelsWord,
  laptopCoverage,
  laptopProgress,
  timeLeftWords,
} from './progressWords'
import { VariantProgress } from './VariantProgress'

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`)
const num = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d))
/**
 * κ with its small-sample mark beside it, as the Agreement view shows it: the figure stays there to
 * be checked against that view and the card, the mark says it rests on too few shared targets.
 */
function KappaCell({ k, n }: { k: number | null; n: number }) {
  const note = kappaNote(n)
  return (
    <>
      {num(k)}
      {note && <span className="muted small"> {note}</span>}
    </>
  )
}
/**
 * A person's accuracy on controls with its interval, and over too few answers the small-sample
 * mark the dataset card and every other rate carry: 100% over one answer is no measured score.
 */
function ControlAccuracy({ c }: { c: Dashboard['annotators'][number]['controls'] }) {
  if (c.answered === 0) return <>—</>
  const note = rateNote(c.answered)
  return (
    <>
      {`${pct(c.accuracy)} (${c.correct}/${c.answered}; ${pct(c.interval?.low ?? null)}–${pct(c.interval?.high ?? null)})`}
      {note && <span className="muted small"> · {note}</span>}
    </>
  )
}
const NO_CLOCK = NO_TIME_TITLE

/** "1 on controls, 2 on older wordings": the reasons a person's labels are not in the figures. */
export function leftOutParts(p: Dashboard['notCounted']['people'][number]): string[] {
  return [
    p.controls > 0 ? `${p.controls} on controls` : '',
    p.olderWordings > 0 ? `${p.olderWordings} on older wordings of edited units` : '',
    p.deletedUnits > 0 ? `${p.deletedUnits} on deleted units` : '',
    p.outsideAssignment > 0
      ? `${p.outsideAssignment} outside their assignment (not in Progress; in agreement, gold and Compare like every label)`
      : '',
  ].filter(Boolean)
}

function ActiveTime({ a }: { a: Dashboard['annotators'][number] }) {
  if (a.labels === 0 && a.timedLabels === 0) return <>—</>
  if (a.timedLabels === 0)
    return (
      <span className="muted" title={NO_CLOCK}>
        no time recorded
      </span>
    )
  return (
    <>
      {duration(a.activeSeconds)}
      {a.timedLabels < a.labels && (
        <span className="muted" title={NO_CLOCK}>
          {' '}
          (on {a.timedLabels} of {labelsWord(a.labels)})
        </span>
      )}
    </>
  )
}

/** "v3", marked when an older version than the current one is the last they read. */
function GuidelinesRead({
  read,
  latest,
}: {
  read: Dashboard['annotators'][number]['guidelinesRead']
  latest: number
}) {
  if (!read) return <span className="muted">not yet</span>
  if (read.version < latest)
    return (
      <span className="error-text">
        v{read.version} (v{latest} is out)
      </span>
    )
  return <>v{read.version}</>
}

/** Said in a laptop's Cost column: a package carries no hourly rate (pay stays with the lead). */
const COST_AT_LEAD =
  "Hourly rates stay in the lead's workspace, so a package carries none: the cost of these labels is counted there once the bundle is back, from the active time it carries"

function Cost({ a, laptop }: { a: Dashboard['annotators'][number]; laptop: boolean }) {
  if (laptop && a.hourlyRate === null)
    return (
      <span className="muted" title={COST_AT_LEAD} data-testid="cost-at-lead">
        — at the lead's
      </span>
    )
  if (a.hourlyRate === null)
    return (
      <span className="muted" title="No hourly rate for this person or the dataset (set one in the plan)">
        — no rate
      </span>
    )
  // The Active time cell beside it already says "no time recorded"; the dash keeps the column narrow.
  if (a.cost === null)
    return (
      <span className="muted" title={`No cost: ${NO_CLOCK.charAt(0).toLowerCase()}${NO_CLOCK.slice(1)}`}>
        —
      </span>
    )
  return (
    <>
      ${a.cost.toFixed(2)}
      {a.timedLabels < a.labels && (
        <span className="muted" title={NO_CLOCK}>
          {' '}
          (timed labels only)
        </span>
      )}
    </>
  )
}

/** Progress, per annotator and per variant, agreement and packages: the lead's figures. */
export function DashboardTables({ d, onChanged }: { d: Dashboard; onChanged(): void }) {
  // On a laptop only one person labels, so no target reaches k: her share is the measure.
  const share = d.laptop
    ? d.laptop.targets === 0
      ? 0
      : d.laptop.done / d.laptop.targets
    : d.labelsWanted === 0
      ? 0
      : d.labelsTowardsK / d.labelsWanted
  // For the same reason no label there lands past k: the column would only ever say 0.
  const pastK = d.plan.planned && d.laptop === undefined
  const timeLeft = timeLeftWords(d, share)
  const finish = finishWords(d, share)
  return (
    <>
      <section className="card" aria-label="Progress">
        <h2>Progress</h2>
        {d.laptop && (
          <p className="notice-box" data-testid="laptop-coverage">
            {laptopCoverage(d.laptop)}
          </p>
        )}
        <p data-testid="project-progress">
          {d.laptop ? (
            <>
              {laptopProgress(d.laptop)} ({pct(share)})
            </>
          ) : (
            <>
              {d.complete} of {countOf(d.targets, 'target')} {d.complete === 1 ? 'has its' : 'have their'}{' '}
              {countOf(d.plan.k, 'label')}
              {d.controls.count > 0 && <> (controls left out)</>} · {d.labelsTowardsK} of {d.labelsWanted}{' '}
              labels ({pct(share)})
            </>
          )}
          {d.timedLabels > 0 && (
            <>
              {' '}
              · {hours(d.activeHours)} of active time
              {d.timedLabels < d.labels && ` on ${d.timedLabels} of ${labelsWord(d.labels)}`}
            </>
          )}
          {d.timedLabels === 0 && d.labels > 0 && (
            <span title={NO_CLOCK}> · no active time recorded, so no estimate of the time left</span>
          )}
          {share >= 1 && (
            <>
              {' '}
              ·{' '}
              {d.laptop
                ? `every target of ${d.laptop.annotator}'s share is labelled`
                : 'every target has its labels'}
            </>
          )}
          {timeLeft && <> · {timeLeft}</>}
          {finish && <> · {finish}</>}
        </p>
        {d.targets === 0 && d.controls.count > 0 && (
          <p className="error-box" role="alert" data-testid="nothing-to-label">
            Nothing is left to label: every target of this dataset is a control. Labels given now count only
            as control answers, never in progress, agreement, cost or judge figures. Unmark some controls
            under Control items below.
          </p>
        )}
        <progress max={1} value={share} aria-label="Labels towards k" />
        <VariantProgress d={d} />
      </section>
      <section className="card" aria-label="Annotators">
        <h2>Annotators</h2>
        {/* Ten columns reach past the card at 1024 px with long names or counts: the table scrolls
            inside it rather than over its edge. */}
        <div className="table-scroll">
          <table className="data-table" data-testid="project-annotators" aria-label="Annotators">
            <thead>
              <tr>
                <th>Annotator</th>
                <th>Labels</th>
                {pastK && <th title="Labels placed by hand on targets that already had k">Past k</th>}
                <th>Progress</th>
                <th>Median s / label</th>
                <th>κ with adjudicated gold</th>
                <th>Control accuracy (95% CI)</th>
                {d.plan.guidelinesVersion !== null && (
                  <th title="The guidelines version each person last read in full, here or on a laptop whose bundle was merged">
                    Guidelines read
                  </th>
                )}
                <th>Active time</th>
                <th>Cost</th>
              </tr>
            </thead>
            <tbody>
              {d.annotators.map((a) => (
                <tr key={a.annotatorId} data-annotator={a.name}>
                  <td>{a.name}</td>
                  <td>{a.labels}</td>
                  {pastK && <td>{a.overK}</td>}
                  <td>{a.assigned === null ? '—' : `${a.assignedDone} / ${a.assigned}`}</td>
                  <td>{num(a.medianSeconds, 1)}</td>
                  <td>{a.goldShared === 0 ? '—' : <KappaCell k={a.kappaWithGold} n={a.goldShared} />}</td>
                  <td data-testid="control-accuracy">
                    <ControlAccuracy c={a.controls} />
                  </td>
                  {d.plan.guidelinesVersion !== null && (
                    <td
                      data-testid="guidelines-read"
                      title={a.guidelinesRead ? `Read ${a.guidelinesRead.at}` : undefined}
                    >
                      <GuidelinesRead read={a.guidelinesRead} latest={d.plan.guidelinesVersion} />
                    </td>
                  )}
                  <td data-testid="active-time">
                    <ActiveTime a={a} />
                  </td>
                  <td data-testid="cost">
                    <Cost a={a} laptop={d.laptop !== undefined} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <NotCounted d={d} />
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
                  <td>
                    <KappaCell k={p.kappa} n={p.n} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <PackagesCard d={d} onChanged={onChanged} />
    </>
  )
}

/**
 * What the table leaves out and why, so a person's numbers here reconcile with the Datasets card
 * (which counts labels on controls) and with the labels a bundle brought back (every wording).
 */
function NotCounted({ d }: { d: Dashboard }) {
  const { people, sources } = d.notCounted
  if (people.length === 0 && sources.length === 0) return null
  return (
    <div className="muted small" data-testid="not-counted">
      {people.length > 0 && (
        <p>
          Not counted above:{' '}
          {people.map((p, i) => (
            <span key={p.name} data-annotator={p.name}>
              {i > 0 && '; '}
              {p.name}: {leftOutParts(p).join(', ')}
            </span>
          ))}
          . Control answers are scored under Control accuracy; the Datasets card counts them.
        </p>
      )}
      {sources.length > 0 && (
        <p>
          Not a person, so never counted towards k, agreement or cost:{' '}
          {sources.map((s) => `${s.name} (${labelsWord(s.labels)} imported with the dataset)`).join('; ')}.
        </p>
      )}
    </div>
  )
}
