import { useEffect, useRef } from 'react'
import { tinykeys } from 'tinykeys'
import { keyTable } from '../../actions/keys'
import type { Action, KeyEnv } from '../../actions/types'

function typing(event: KeyboardEvent): boolean {
  const t = event.target
  if (!(t instanceof Element)) return false
  // Enter on a button reached with Tab presses that button, as everywhere else.
  if (event.key === 'Enter' && t.matches('button, a[href], summary')) return true
  return t.matches('input, textarea, select, [contenteditable], [contenteditable] *')
}

const noFrameWork = () => {}

/**
 * Asks for the next frame as a key's task starts, before the handler works out what the key does.
 * The label is drawn in that frame in any case; asked for only when the label is queued (half a
 * millisecond in), the request can reach the compositor just after a display frame began with
 * nothing to draw, and the label then waits a whole frame more for the next one.
 */
function askForFrame(event: KeyboardEvent): void {
  if (!event.isComposing && !typing(event)) requestAnimationFrame(noFrameWork)
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
    // Capture: ahead of every other listener of the key, so the request leaves first.
    window.addEventListener('keydown', askForFrame, { capture: true })
    const unbind = tinykeys(window, map, { ignore: (e) => e.isComposing || typing(e) })
    return () => {
      window.removeEventListener('keydown', askForFrame, { capture: true })
      unbind()
    }
  }, [actions, keyList, enabled])
}
