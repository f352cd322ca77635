import { useState } from 'react'
import type { DatasetSummary } from '../../../../shared/contract/datasets'
import {
  describeGoldRule,
  GOLD_TIE_RULES,
  type GoldMajorityOf,
  type GoldRule,
  type GoldTieRule,
} from '../../../../shared/goldRule'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'
import { useQuery } from '../../hooks'
import { useSettings } from '../../settings'
import './goldRule.css'

const TIE_TEXT: Record<GoldTieRule, string> = {
  none: 'no gold until adjudicated',
  unsupported: 'counts as unsupported',
  supported: 'counts as supported',
}

/**
 * Dataset setting: how gold is made where nobody adjudicated. Saving recomputes gold at once
 * and keeps the change (and every target it moved) in the history shown below.
 */
export function GoldRulePanel({ dataset }: { dataset: DatasetSummary }) {
  const { settings } = useSettings()
  const state = useQuery(() => api('gold.rule', { datasetId: dataset.id }), [dataset.id])
  const [draft, setDraft] = useState<GoldRule | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const current = state.data?.rule
  const rule = draft ?? current
  if (!rule) return null
  const majority =
    rule.kind === 'majority'
      ? rule
      : { kind: 'majority' as const, tie: 'none' as const, minLabels: 1, of: 'everyone' as const }
  const names = dataset.labelledBy.map((p) => p.name)
  // A majority of the sources needs sources: offered only where the import gave some.
  const hasSources = dataset.labelledBy.some((p) => p.source)
  const save = async () => {
    setSaving(true)
    setError(null)
    try {
      await api('gold.setRule', { datasetId: dataset.id, rule, changedBy: settings.annotatorName ?? null })
      setDraft(null)
      state.reload()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setSaving(false)
    }
  }
  return (
    <details className="gold-rule" data-testid="gold-rule">
      <summary>Gold rule: {describeGoldRule(current ?? rule)}</summary>
      <fieldset disabled={saving}>
        <label>
          Gold is{' '}
          <select
            value={rule.kind}
            onChange={(e) =>
              setDraft(
                e.target.value === 'annotator'
                  ? { kind: 'annotator', annotator: names[0] ?? '' }
                  : { ...majority },
              )
            }
          >
            <option value="majority">the majority of the labels</option>
            <option value="annotator" disabled={names.length === 0}>
              one annotator's labels
            </option>
          </select>
        </label>
        {rule.kind === 'majority' ? (
          <>
            <label>
              Counting{' '}
              <select
                value={rule.of}
                onChange={(e) => setDraft({ ...rule, of: e.target.value as GoldMajorityOf })}
              >
                <option value="everyone">everyone's labels</option>
                <option value="sources" disabled={!hasSources && rule.of !== 'sources'}>
                  {hasSources
                    ? "only the dataset's own reference labels (sources)"
                    : "only the dataset's own reference labels — this dataset has none"}
                </option>
              </select>
            </label>
            <label>
              A tie{' '}
              <select
                value={rule.tie}
                onChange={(e) => setDraft({ ...rule, tie: e.target.value as GoldTieRule })}
              >
                {GOLD_TIE_RULES.map((t) => (
                  <option key={t} value={t}>
                    {TIE_TEXT[t]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              At least{' '}
              <input
                type="number"
                min={1}
                value={rule.minLabels}
                onChange={(e) =>
                  setDraft({ ...rule, minLabels: Math.max(1, Math.floor(Number(e.target.value) || 1)) })
                }
              />{' '}
              labels per target
            </label>
          </>
        ) : (
          <label>
            Annotator{' '}
            <select
              value={rule.annotator}
              onChange={(e) => setDraft({ kind: 'annotator', annotator: e.target.value })}
            >
              {names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" onClick={save} disabled={draft === null}>
          Save gold rule
        </button>
      </fieldset>
      <p className="muted small">Adjudicated gold always wins over the rule.</p>
      {error && <p className="error-box">{error}</p>}
      {state.data && state.data.history.length > 0 && (
        <ul className="muted small" aria-label="Gold rule history">
          {state.data.history
            .slice(-5)
            .reverse()
            .map((h) => (
              <li key={h.id}>
                {h.changedAt.slice(0, 16).replace('T', ' ')}
                {h.changedBy ? ` by ${h.changedBy}` : ''}: {h.description} — gold on {h.goldBefore} →{' '}
                {countOf(h.goldAfter, 'target')}, {h.moved} changed
              </li>
            ))}
        </ul>
      )}
    </details>
  )
}
