import { useMemo, useRef, useState } from 'react'
import { type DatasetMetrics, fmtMoney, fmtNum, fmtPct } from '../../../../shared/contract/metrics'
import { costSplitLines, SPLIT_HEAD } from '../../../../shared/costSplit'
import { NO_TIME_TITLE, untimedWords } from '../../../../shared/humanCost'
import { COST_PER_1000_NOTE } from '../../../../shared/judgeRates'
import { countOf, formatCount } from '../../../../shared/plural'
import { ALL_REUSED } from '../../../../shared/reusedReplies'
import { ciTitle, kappaNote, rateNote } from '../../../../shared/smallSample'
import { CostGap, FROM_CACHE_TITLE, NoPrice, RateCell } from './JudgeCells'
import { type Row, rowsOf, type SortKey, value } from './judgeRows'
import { compareRows } from './rowOrder'
import { useNarrowerThan } from './useNarrowerThan'

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

/** Columns whose order says which row is better: a small sample is not ranked above a steady one. */
const FIGURE_KEYS: readonly SortKey[] = ['errorRate', 'accuracy', 'f1Unsupported', 'kappa']

const small = (r: Row) => r.f.errorRate !== null && rateNote(r.f.n) !== ''

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
                  <td data-metric="calls">{r.calls === null ? '—' : formatCount(r.calls)}</td>
                  <td data-metric="tokens">{r.tokens === null ? '—' : formatCount(r.tokens)}</td>
                </>
              )}
              <td title={r.timing ?? undefined}>
                <div data-metric="cost">
                  {r.noPrice ? (
                    <NoPrice />
                  ) : (
                    <>
                      {r.cost === null ? <CostGap gap={r.costGap} /> : fmtMoney(r.cost)}
                      {r.batch ? <div className="muted small">{r.batch}</div> : null}
                      {r.costMark ? <div className="muted small">{r.costMark}</div> : null}
                      {r.fromCache ? (
                        <div className="muted small" title={FROM_CACHE_TITLE}>
                          {ALL_REUSED}
                        </div>
                      ) : null}
                    </>
                  )}
                </div>
                {/* What the money bought, by price: with no price known, the tokens alone. */}
                {r.split ? (
                  <div className="muted small cmp-split" data-metric="cost-split" title={SPLIT_HEAD}>
                    {costSplitLines(r.split, fmtMoney, false).map((line) => (
                      // Each part wraps like the marks above it: at 1280 px the Cost column stays in view.
                      <div key={line}>{line}</div>
                    ))}
                  </div>
                ) : null}
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
