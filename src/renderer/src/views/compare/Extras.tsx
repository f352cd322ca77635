import { useLayoutEffect, useRef } from 'react'
import { type DatasetMetrics, fmtPct, fmtPctCi, spreadRunsWords } from '../../../../shared/contract/metrics'
import { type Cell, cellText, coefficientParts } from '../../../../shared/itemLevelRows'
import { RAI_HEAD, RAI_NOTE } from '../../../../shared/judgeRates'
import { DEFAULT_REFCHECKER_NA, REFCHECKER_NA_WORDS } from '../../../../shared/refcheckerNa'

/**
 * Keeps the columns `pins` in view beside the pinned first one when the table scrolls sideways.
 * Each one's sticky offset is the width of the columns pinned before it, measured, since names
 * wrap the first column to any width. The widths are the ones the resize observer reports after
 * the frame's own layout, never measured here: a measure in the commit lays out the whole page
 * whenever an offset was written before it, and each table's offsets made the next table's
 * measure do that again (the item-level tables held the page for tens of milliseconds each).
 */
function usePinnedBesideFirst(pins: readonly number[]) {
  const table = useRef<HTMLTableElement>(null)
  const key = pins.join(',')
  useLayoutEffect(() => {
    const el = table.current
    const heads = el ? Array.from(el.querySelectorAll<HTMLElement>('thead th')) : []
    const at = key === '' ? [] : key.split(',').map(Number)
    if (!el || at.length === 0 || heads.length === 0) return
    const widths = new Map<Element, number>()
    const watch = new ResizeObserver((entries) => {
      for (const e of entries) widths.set(e.target, e.borderBoxSize[0]?.inlineSize ?? 0)
      // A collapsed border is not painted on a sticky cell: overlap it by a pixel, so nothing
      // scrolling under the pinned columns shows through that line.
      let left = (widths.get(heads[0]!) ?? 0) - 1
      at.forEach((i, k) => {
        el.style.setProperty(`--pin-left-${k}`, `${left}px`)
        const head = heads[i]
        left += (head ? (widths.get(head) ?? 0) : 0) - 1
      })
    })
    // An observer reports every element it is given once, before the first paint.
    for (const h of new Set([heads[0]!, ...at.flatMap((i) => heads[i] ?? [])]))
      watch.observe(h, { box: 'border-box' })
    return () => watch.disconnect()
  }, [key])
  const order = new Map(pins.map((i, k) => [i, k]))
  return {
    table,
    pinned: (i: number) => order.get(i),
  }
}

/** A titled table of text cells; nothing when it has no rows. */
export function PlainTable(props: {
  title: string
  note?: string
  testId: string
  head: string[]
  rows: Cell[][]
  /** Columns that tell rows apart (e.g. variant and level), pinned with the first one, in order. */
  pinWithFirst?: readonly number[]
}) {
  const { table, pinned } = usePinnedBesideFirst(props.pinWithFirst ?? [])
  const pinStyle = (i: number) => {
    const k = pinned(i)
    return k === undefined ? undefined : { left: `var(--pin-left-${k})` }
  }
  const pinClass = (i: number) => (pinned(i) === undefined ? undefined : 'cmp-pinned')
  if (props.rows.length === 0) return null
  return (
    <section>
      <h2>{props.title}</h2>
      {props.note ? <p className="cmp-hint">{props.note}</p> : null}
      <div className="table-frame">
        <table ref={table} className="cmp-table" data-testid={props.testId} aria-label={props.title}>
          <thead>
            <tr>
              {props.head.map((h, i) => (
                <th
                  key={h}
                  className={['cmp-plain-th', pinClass(i)].filter(Boolean).join(' ')}
                  style={pinStyle(i)}
                >
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((r) => (
              <tr key={r.map(cellText).join('\u0000')}>
                {r.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells of a fixed-width row
                  <td key={i} className={pinClass(i)} style={pinStyle(i)}>
                    {typeof c === 'string' ? (
                      c
                    ) : (
                      <>
                        {c.text}
                        {c.note && <span className="cmp-sub"> {c.note}</span>}
                      </>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

/**
 * Figures that only some datasets have: repeated runs of one config, numeric scores against
 * human labels, RAI rounds and RefChecker distributions. Each table appears only with data.
 */
export function Extras({ metrics: m }: { metrics: DatasetMetrics }) {
  const ref = m.judges.filter((j) => j.refchecker !== null)
  return (
    <>
      <PlainTable
        title="Spread over repeated runs of one config (batch and call-by-call runs apart)"
        testId="repeat-spread"
        head={['Config', 'Runs', 'Mean error rate', 'SD', 'Min', 'Max']}
        rows={m.spreads.map((s) => [
          s.label,
          spreadRunsWords(s),
          fmtPct(s.errorRate?.mean),
          fmtPct(s.errorRate?.sd),
          fmtPct(s.errorRate?.min),
          fmtPct(s.errorRate?.max),
        ])}
      />
      <PlainTable
        title="Scores against human labels"
        testId="correlations"
        head={['Judge', 'Level', 'Against', 'n', 'Pearson', 'Spearman', 'Kendall τ-b', 'AUROC']}
        rows={m.correlations.map((c) => {
          // The same cells and small-sample marks as the report's table.
          const what = c.level === 'candidate' ? 'candidates' : 'targets'
          const cell = (x: number | null) => coefficientParts(x, null, c.n, what)
          return [
            c.label,
            c.level === 'candidate' ? 'DCR score per candidate' : 'per target',
            c.against,
            String(c.n),
            cell(c.pearson),
            cell(c.spearman),
            cell(c.kendallTauB),
            // Numeric human labels are cut into two classes for AUROC; say where, as the reports do.
            c.aurocCut && c.auroc !== null
              ? { ...cell(c.auroc), text: `${cell(c.auroc).text} (human ≥ ${c.aurocCut.threshold})` }
              : cell(c.auroc),
          ]
        })}
      />
      <PlainTable
        title="RAI consistency improvement per round"
        testId="rai"
        note={RAI_NOTE}
        head={RAI_HEAD}
        rows={m.judges.flatMap((j) =>
          j.rai.map((r) => [
            j.label,
            String(r.round),
            String(r.inconsistent),
            String(r.corrected),
            String(r.failed),
            String(r.unscored),
            r.rate === null ? fmtPct(r.rate) : `${fmtPctCi(r.rate, r.rateCi)} (n ${r.inconsistent})`,
            r.cumulativeRate === null
              ? fmtPct(r.cumulativeRate)
              : `${fmtPctCi(r.cumulativeRate, r.cumulativeCi)} (${r.correctedSoFar}/${r.originals})`,
          ]),
        )}
      />
      <PlainTable
        title={`RefChecker label distribution (macro average over responses; ${REFCHECKER_NA_WORDS[m.refcheckerEval?.naRule ?? DEFAULT_REFCHECKER_NA]})`}
        testId="refchecker"
        head={['Source', 'Entailment', 'Neutral', 'Contradiction']}
        rows={[
          ...(m.goldRefchecker
            ? [
                [
                  'gold',
                  fmtPct(m.goldRefchecker.entailment),
                  fmtPct(m.goldRefchecker.neutral),
                  fmtPct(m.goldRefchecker.contradiction),
                ],
              ]
            : []),
          ...ref.map((j) => [
            j.label,
            fmtPct(j.refchecker?.entailment),
            fmtPct(j.refchecker?.neutral),
            fmtPct(j.refchecker?.contradiction),
          ]),
        ]}
      />
    </>
  )
}
