import { useQuery } from '../../hooks'
import { type Settings, useSettings } from '../../settings'
import { workspaceInfo } from '../../workspaceInfo'
import type { ViewProps } from '../types'

const THEMES: { value: Settings['theme']; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

/** Who is labelling, blind mode, theme. Stored per browser; labels live in the workspace. */
export function SettingsView({ chooseAnnotator }: ViewProps) {
  const { settings, update } = useSettings()
  const info = useQuery(workspaceInfo, [])

  return (
    <div className="page narrow">
      <header className="page-head">
        <h1>Settings</h1>
      </header>
      <section className="card settings-section">
        <h2>Who is labelling</h2>
        <p>
          Labels are saved as <strong>{settings.annotatorName ?? 'nobody yet'}</strong>.
        </p>
        <button type="button" onClick={chooseAnnotator}>
          Switch or add annotator…
        </button>
      </section>
      <section className="card settings-section">
        <h2>Blind mode</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={settings.blind}
            onChange={(e) => update({ blind: e.target.checked })}
            aria-describedby="blind-help"
          />
          Hide judge verdicts and other annotators’ labels until I have labelled the unit
        </label>
        <p id="blind-help" className="muted small">
          Seeing a judge’s answer first pulls people towards it. With blind mode on, the workspace does not
          even send those verdicts to this page before your own label is saved.
        </p>
      </section>
      <section className="card settings-section">
        <h2>Appearance</h2>
        <fieldset className="segmented" aria-label="Theme">
          {THEMES.map((t) => (
            <button
              key={t.value}
              type="button"
              aria-pressed={settings.theme === t.value}
              className={settings.theme === t.value ? 'active' : ''}
              onClick={() => update({ theme: t.value })}
            >
              {t.label}
            </button>
          ))}
        </fieldset>
      </section>
      {info.data && (
        <section className="card settings-section">
          <h2>Workspace</h2>
          <p className="mono small">{info.data.file}</p>
          <p className="muted small">
            FactLab {info.data.appVersion} · schema {info.data.schemaVersion}
          </p>
        </section>
      )}
    </div>
  )
}
