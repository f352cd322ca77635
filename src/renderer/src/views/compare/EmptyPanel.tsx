import { useState } from 'react'
import { DEFAULT_MODEL } from '../../../../shared/judgeValidity'
import { api } from '../../api'

/**
 * Runs the offline lexical baseline on a dataset: its saved config if there is one, else a new
 * one. Needs no key and no network, so it is the run any empty Compare panel can offer.
 */
export async function runLexicalBaseline(datasetId: number): Promise<void> {
  const configs = await api('judges.configs', {})
  const config =
    configs.find((c) => c.provider === 'lexical' && c.method === 'lexical') ??
    (await api('judges.saveConfig', {
      name: 'Lexical baseline',
      provider: 'lexical',
      model: DEFAULT_MODEL.lexical ?? 'rougeL',
      baseUrl: null,
      method: 'lexical',
      settings: {},
    }))
  await api('judges.start', { datasetId, configId: config.id })
}

/** What fills an empty panel, and the action that fills it. */
export function EmptyPanel(props: { what: string; datasetId: number; hasGold: boolean; onGold(): void }) {
  const [state, setState] = useState<'idle' | 'running' | string>('idle')
  if (!props.hasGold)
    return (
      <div className="cmp-empty" data-testid="cmp-empty">
        <p className="cmp-hint">
          {props.what} compares judges with the human gold, and no target has gold yet. Label some units (or
          import labels) first.
        </p>
        <button type="button" onClick={props.onGold}>
          Start labelling
        </button>
      </div>
    )
  return (
    <div className="cmp-empty" data-testid="cmp-empty">
      <p className="cmp-hint">
        {props.what} fills in once a judge run has verdicts on this dataset. The lexical baseline runs offline
        in seconds, with no API key.
      </p>
      <button
        type="button"
        disabled={state === 'running'}
        onClick={async () => {
          setState('running')
          try {
            await runLexicalBaseline(props.datasetId)
            setState('idle')
          } catch (e) {
            setState(e instanceof Error ? e.message : String(e))
          }
        }}
      >
        {state === 'running' ? 'Running the lexical baseline…' : 'Run the lexical baseline'}
      </button>
      {state !== 'idle' && state !== 'running' && <p className="cmp-error">{state}</p>}
    </div>
  )
}
