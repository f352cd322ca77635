import type { JudgeSettings } from '../../../../shared/contract/judges'

type Setting = <K extends keyof JudgeSettings>(k: K, v: JudgeSettings[K] | undefined) => void

/**
 * The lexical baseline's options: which overlap score, the threshold for "supported", and how
 * text is cut into words (Unicode words, or the papers' ASCII [a-z0-9]+ lower-case tokens).
 */
export function LexicalSettings({ settings: s, setting }: { settings: JudgeSettings; setting: Setting }) {
  return (
    <>
      <label className="field">
        <span>Lexical score</span>
        <select
          value={s.lexicalMetric ?? 'rougeL'}
          onChange={(e) =>
            setting('lexicalMetric', e.target.value as NonNullable<JudgeSettings['lexicalMetric']>)
          }
        >
          <option value="rouge1">ROUGE-1</option>
          <option value="rouge2">ROUGE-2</option>
          <option value="rougeL">ROUGE-L</option>
          <option value="overlap">token overlap</option>
        </select>
      </label>
      <label className="field">
        <span>Supported from</span>
        <input
          value={s.lexicalThreshold ?? ''}
          placeholder="0.5"
          aria-label="Lexical threshold"
          onChange={(e) => {
            const n = e.target.value.trim() === '' ? Number.NaN : Number(e.target.value)
            setting('lexicalThreshold', Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined)
          }}
        />
      </label>
      <label className="field">
        <span>Words</span>
        <select
          value={s.lexicalTokens ?? 'unicode'}
          onChange={(e) => setting('lexicalTokens', e.target.value as 'unicode' | 'ascii')}
        >
          <option value="unicode">Unicode words</option>
          <option value="ascii">ASCII [a-z0-9]+ (as the papers' scripts)</option>
        </select>
      </label>
    </>
  )
}
