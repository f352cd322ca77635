import { type ReactNode, useMemo, useRef, useState } from 'react'
import { judgeColour } from '../../../../shared/charts'
import {
  type DatasetMetrics,
  type Figures,
  fmtMoney,
  fmtNum,
  fmtPct,
  fmtPctCi,
} from '../../../../shared/contract/metrics'
import {
  humanCostGap,
  NO_RATE_TITLE,
  NO_TIME_RECORDED,
  NO_TIME_TITLE,
  untimedWords,
} from '../../../../shared/humanCost'
import { humanRowLabel } from '../../../../shared/humanRowLabel'
import { COST_PER_1000_NOTE, type CostUnit } from '../../../../shared/judgeRates'
import { countOf, formatCount } from '../../../../shared/plural'
import { costMark, FROM_CACHE, NO_PRICE, NO_PRICE_TITLE, priceUnknown } from '../../../../shared/runNames'
import { ciTitle, kappaNote, rateNote, withCiMark } from '../../../../shared/smallSample'
import { compareRows } from './rowOrder'
import { useNarrowerThan } from './useNarrowerThan'

/** One table row: a judge run or an annotator scored like a judge. */
interface Row {
  key: string
  kind: 'judge' | 'human'
  name: string
  runId: number | null
  /** The judge's colour in the charts, so a row and its bars read as one. */
  colour: string | null
  f: Figures
  calls: number | null
  tokens: number | null
  cost: number | null
  /** Cost at a provider's batch price. */
  batch?: boolean
  /** How the cost was priced, when that needs saying (src/shared/runNames.ts costMark). */
  costMark?: string | null
  per1000: number | null
  /** What the 1,000 are: facts for fact methods; null for people (their targets). */
  per1000Of?: CostUnit
  /** A person's: why there is no cost (no time recorded, no rate); null when there is one. */
  costGap?: string | null
  /** A judge's: made with no price, so its cost is unknown (never shown as $0). */
  noPrice?: boolean
  /** A judge's: every answer came from the response cache. */
  fromCache?: boolean
  /** A person's labels with no time, left out of the cost per 1,000. */
  untimed?: number
  /** Wall time and call latency, shown on hover over the cost. */
  timing: string | null
}

type SortKey =
  | 'name'
  | 'n'
  | 'na'
  | 'errors'
  | 'errorRate'
  | 'accuracy'
  | 'f1Unsupported'
  | 'kappa'
  | 'calls'
  | 'tokens'
  | 'cost'
  | 'per1000'

const COLUMNS: { key: SortKey; label: string; title: string }[] = [
  { key: 'name', label: 'Judge', title: 'Judge run, or an annotator scored against the other annotators' },
  { key: 'n', label: 'n', title: 'Targets with both a verdict and gold' },
  {
    key: 'na',
    label: 'N/A',
    title: 'Replies that could not be read as a verdict (share of all verdict rows)',
  },
  { key: 'errors', label: 'Errors', title: 'Calls that failed after retries (share of all verdict rows)' },
  {
    key: 'errorRate',
    label: 'Error rate [95% CI]',
    title: 'Disagreements with gold over judged targets, N/A excluded',
  },
  { key: 'accuracy', label: 'Accuracy', title: '1 − error rate' },
  { key: 'f1Unsupported', label: 'F1 unsupported [95% CI]', title: 'F1 on the unsupported class' },
  { key: 'kappa', label: 'κ', title: "Cohen's κ between the judge and gold (binary)" },
  { key: 'calls', label: 'Calls', title: 'Provider calls the run made' },
  { key: 'tokens', label: 'Tokens', title: 'Prompt + completion tokens' },
  {
    key: 'cost',
    label: 'Cost',
    title: 'From the prices entered for the model; for people, active hours × hourly rate',
  },
  { key: 'per1000', label: 'Cost / 1,000 targets', title: COST_PER_1000_NOTE },
]

/**
 * Below this much room (a 1024 px window) the secondary columns fold into their neighbours, each
 * figure still in view as a line under the one it goes with: N/A and errors under n, accuracy
 * under the error rate, calls and tokens under the cost.
 */
const FOLD_BELOW_PX = 1000
const FOLDED: readonly SortKey[] = ['na', 'errors', 'accuracy', 'calls', 'tokens']
const FOLDED_LABELS: Partial<Record<SortKey, string>> = {
  n: 'n (N/A, errors)',
  errorRate: 'Error rate [95% CI] (accuracy)',
  cost: 'Cost (calls, tokens)',
}

function value(r: Row, key: SortKey): number | string | null {
  switch (key) {
    case 'name':
      return r.name
    case 'calls':
      return r.calls
    case 'tokens':
      return r.tokens
    case 'cost':
      return r.cost
    case 'per1000':
      return r.per1000
    default:
      return r.f[key]
  }
}

export function rowsOf(m: DatasetMetrics): Row[] {
  return [
    ...m.judges.map(
      (j, k): Row => ({
        key: `run-${j.runId}`,
        kind: 'judge',
        name: j.status === 'done' ? j.label : `${j.label} — ${j.status}`,
        runId: j.runId,
        colour: judgeColour(k),
        f: j,
        calls: j.calls,
        tokens: j.promptTokens + j.completionTokens,
        cost: j.cost,
        costMark: costMark(j.costBasis, j.calls),
        batch: j.batch,
        per1000: j.costPer1000,
        per1000Of: j.costUnit,
        noPrice: priceUnknown(j.costBasis, j.calls),
        fromCache: j.answeredFromCache,
        timing: [
          j.wallSeconds === null ? null : `wall ${j.wallSeconds.toFixed(1)} s`,
          j.latencyP50 === null ? null : `latency p50 ${Math.round(j.latencyP50)} ms`,
          j.latencyP95 === null ? null : `p95 ${Math.round(j.latencyP95)} ms`,
        ]
          .filter(Boolean)
          .join(' · '),
      }),
    ),
    ...m.humans.map(
      (h): Row => ({
        key: `human-${h.annotatorId}`,
        kind: 'human',
        name: humanRowLabel(h),
        runId: null,
        colour: null,
        f: h,
        calls: null,
        tokens: null,
        cost: h.cost ?? null,
        costGap: humanCostGap(h),
        per1000: h.costPer1000 ?? null,
        untimed: Math.max(0, (h.labelled ?? 0) - (h.timedLabels ?? 0)),
        timing:
          h.activeSeconds === undefined || h.labelled === undefined
            ? null
            : `${(h.activeSeconds / 3600).toFixed(2)} active hours on ${countOf(h.labelled, 'target')}`,
      }),
    ),
  ]
}

/** Columns whose order says which row is better: a small sample is not ranked above a steady one. */
const FIGURE_KEYS: readonly SortKey[] = ['errorRate', 'accuracy', 'f1Unsupported', 'kappa']

const small = (r: Row) => r.f.errorRate !== null && rateNote(r.f.n) !== ''

const FROM_CACHE_TITLE =
  'Every answer came from the response cache of an earlier run: no call was made and nothing was paid, so this is not what the method costs'

/** A rate with its interval, the interval's method when it is not the bootstrap (as `metrics` prints it), and the small-sample mark. */
function RateCell({
  value,
  ci,
  method,
  n,
  metric,
  children,
}: {
  value: number | null
  ci: [number, number] | null
  method: Figures['errorRateCiMethod']
  n: number
  /** Names the figure's own line (without the mark) for tests and copying. */
  metric?: string
  /** Figures folded under this one (accuracy under the error rate): the mark comes after them, covering both. */
  children?: ReactNode
}) {
  const note = value === null ? '' : rateNote(n)
  return (
    <>
      <div data-metric={metric}>
        <Stacked text={withCiMark(fmtPctCi(value, ci), ci, method)} />
      </div>
      {children}
      {note ? <div className="cmp-small">{note}</div> : null}
    </>
  )
}

/**
 * What stands where a person has no cost: why (no time recorded, no rate), as the project
 * dashboard says it, rather than a bare dash that reads as "free" or "missing".
 */
function CostGap({ gap }: { gap: string | null | undefined }) {
  if (!gap) return <>—</>
  return (
    <span className="muted small" title={gap === NO_TIME_RECORDED ? NO_TIME_TITLE : NO_RATE_TITLE}>
      {gap}
    </span>
  )
}

/** A judge's cost where no price is known: a dash and why, never $0. */
function NoPrice() {
  return (
    <span className="muted small" title={NO_PRICE_TITLE}>
      — {NO_PRICE}
    </span>
  )
}

/**
 * A figure with its interval under it ("24.7% [18.4–31.0%]" on two lines), so the table fits a
 * 1280 px window; the text stays one string for copying and reading aloud.
 */
function Stacked({ text }: { text: string }) {
  const at = text.indexOf(' [')
  if (at < 0) return <>{text}</>
  return (
    <>
      {text.slice(0, at)} <span className="cmp-ci">{text.slice(at + 1)}</span>
    </>
  )
}

/** Judges and humans × metrics, sortable by any column; undefined figures sort last. */
export function JudgeTable({ metrics }: { metrics: DatasetMetrics }) {
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'errorRate', desc: false })
  const rows = useMemo(() => {
    const out = rowsOf(metrics)
    const opts = { figure: FIGURE_KEYS.includes(sort.key), desc: sort.desc }
    return out.sort((a, b) =>
      compareRows(
        { value: value(a, sort.key), small: small(a) },
        { value: value(b, sort.key), small: small(b) },
        opts,
      ),
    )
  }, [metrics, sort])
  const onSort = (key: SortKey) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : false }))
  const frame = useRef<HTMLDivElement>(null)
  const folded = useNarrowerThan(frame, FOLD_BELOW_PX)
  const columns = folded ? COLUMNS.filter((c) => !FOLDED.includes(c.key)) : COLUMNS
  if (rows.length === 0) return <p className="cmp-hint">No judge run has verdicts on this dataset yet.</p>
  return (
    <div className="table-frame" ref={frame}>
      <table
        className={folded ? 'cmp-table cmp-folded' : 'cmp-table'}
        data-testid="judge-table"
        aria-label="Judges and humans"
      >
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                title={c.title}
                aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
              >
                <button type="button" className="cmp-sort" onClick={() => onSort(c.key)}>
                  {(folded && FOLDED_LABELS[c.key]) || c.label}
                  {sort.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className={r.kind === 'human' ? 'cmp-human' : undefined} data-row={r.key}>
              <td>
                {r.colour && <span className="cmp-swatch" style={{ background: r.colour }} />}
                {r.name}
              </td>
              {folded ? (
                <td>
                  <div data-metric="n">{r.f.n}</div>
                  <div className="cmp-sub cmp-fold" data-metric="na">
                    N/A {r.f.na} ({fmtPct(r.f.naRate)})
                  </div>
                  <div className="cmp-sub cmp-fold" data-metric="errors">
                    errors {r.f.errors} ({fmtPct(r.f.transportErrorRate)})
                  </div>
                </td>
              ) : (
                <>
                  <td data-metric="n">{r.f.n}</td>
                  <td data-metric="na">
                    {r.f.na} <span className="cmp-sub">({fmtPct(r.f.naRate)})</span>
                  </td>
                  <td data-metric="errors">
                    {r.f.errors} <span className="cmp-sub">({fmtPct(r.f.transportErrorRate)})</span>
                  </td>
                </>
              )}
              <td title={ciTitle(r.f.errorRateCiMethod, r.f.n)}>
                <RateCell
                  value={r.f.errorRate}
                  ci={r.f.errorRateCi}
                  method={r.f.errorRateCiMethod}
                  n={r.f.n}
                  metric="errorRate"
                >
                  {folded && (
                    <div className="cmp-sub cmp-fold" data-metric="accuracy">
                      accuracy {fmtPct(r.f.accuracy)}
                    </div>
                  )}
                </RateCell>
              </td>
              {!folded && (
                <td data-metric="accuracy">
                  <RateCell value={r.f.accuracy} ci={null} method={null} n={r.f.n} />
                </td>
              )}
              <td data-metric="f1Unsupported" title={ciTitle(r.f.f1CiMethod, r.f.n)}>
                <RateCell value={r.f.f1Unsupported} ci={r.f.f1Ci} method={r.f.f1CiMethod} n={r.f.n} />
              </td>
              <td data-metric="kappa">
                {fmtNum(r.f.kappa)} <span className="cmp-sub">{kappaNote(r.f.n)}</span>
              </td>
              {!folded && (
                <>
                  <td data-metric="calls">{r.calls ?? '—'}</td>
                  <td data-metric="tokens">{r.tokens ?? '—'}</td>
                </>
              )}
              <td title={r.timing ?? undefined}>
                <div data-metric="cost">
                  {r.noPrice ? (
                    <NoPrice />
                  ) : (
                    <>
                      {r.cost === null ? <CostGap gap={r.costGap} /> : fmtMoney(r.cost)}
                      {r.batch ? <span className="muted small"> batch</span> : null}
                      {r.costMark ? <div className="muted small">{r.costMark}</div> : null}
                      {r.fromCache ? (
                        <div className="muted small" title={FROM_CACHE_TITLE}>
                          {FROM_CACHE}
                        </div>
                      ) : null}
                    </>
                  )}
                </div>
                {folded && r.calls !== null && (
                  <div className="cmp-sub cmp-fold" data-metric="calls">
                    {countOf(r.calls, 'call')}
                  </div>
                )}
                {folded && r.tokens !== null && (
                  <div className="cmp-sub cmp-fold" data-metric="tokens">
                    {formatCount(r.tokens)} tokens
                  </div>
                )}
              </td>
              <td data-metric="per1000">
                {r.noPrice ? (
                  <NoPrice />
                ) : r.per1000 === null ? (
                  <CostGap gap={r.costGap} />
                ) : (
                  fmtMoney(r.per1000)
                )}
                {!r.noPrice && r.per1000 !== null && r.per1000Of === 'facts' ? (
                  <div className="muted small">per 1,000 facts</div>
                ) : null}
                {r.per1000 !== null && r.untimed ? (
                  <div className="muted small" title={NO_TIME_TITLE}>
                    {untimedWords(r.untimed)}
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
