import { useEffect, useRef } from 'react'
import { tinykeys } from 'tinykeys'
import { keyTable } from '../../actions/keys'
import type { Action, KeyEnv } from '../../actions/types'

function typing(event: KeyboardEvent): boolean {
  const t = event.target
  return t instanceof Element && t.matches('input, textarea, select, [contenteditable], [contenteditable] *')
}

/**
 * Binds every key of `actions` on the window while `enabled` (a dialog open disables them).
 * `run` and the selection are read through a ref so the binding is made once per dataset
 * schema, not on every render.
 */
export function useAnnotateKeys(
  actions: readonly Action<unknown>[],
  env: KeyEnv,
  run: (action: Action<unknown>, arg: unknown) => void,
  enabled: boolean,
): void {
  const ref = useRef({ env, run })
  ref.current = { env, run }
  const keyList = env.verdictKeys.map((k) => `${k.key}=${k.verdict}`).join('|')
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyList stands for env.verdictKeys
  useEffect(() => {
    if (!enabled) return
    const map: Record<string, (e: KeyboardEvent) => void> = {}
    const env: KeyEnv = {
      verdictKeys: ref.current.env.verdictKeys,
      selection: () => ref.current.env.selection(),
    }
    for (const row of keyTable(actions, env))
      map[row.key] = (e) => {
        e.preventDefault()
        // A key held down may scroll through units but must not label a run of them by itself.
        if (e.repeat && !row.action.repeat) return
        ref.current.run(row.action, row.arg())
      }
    return tinykeys(window, map, { ignore: (e) => e.isComposing || typing(e) })
  }, [actions, keyList, enabled])
}
