import { useEffect, useRef } from 'react'
import { tinykeys } from 'tinykeys'
import { KEYS, type VerdictKey } from '../../actions/keymap'

export interface KeyHandlers {
  verdict(verdict: string): void
  next(): void
  prev(): void
  nextUnlabelled(): void
  undo(): void
  note(): void
  attachEvidence(): void
  nextVariant(): void
  prevVariant(): void
  nextItem(): void
  prevItem(): void
}

function typing(event: KeyboardEvent): boolean {
  const t = event.target
  return t instanceof Element && t.matches('input, textarea, select, [contenteditable], [contenteditable] *')
}

/**
 * Binds the annotate keys on the window while `enabled` (a dialog open disables them). Handlers
 * are read through a ref so the binding is made once, not on every render.
 */
export function useAnnotateKeys(verdictKeys: VerdictKey[], handlers: KeyHandlers, enabled: boolean): void {
  const ref = useRef(handlers)
  ref.current = handlers
  const keyList = verdictKeys.map((k) => `${k.key}=${k.verdict}`).join('|')
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyList stands for verdictKeys
  useEffect(() => {
    if (!enabled) return
    const map: Record<string, (e: KeyboardEvent) => void> = {}
    // A key held down may scroll through units but must not label a run of them by itself.
    const bind = (keys: readonly string[], fn: () => void, repeat = false) => {
      for (const k of keys)
        map[k] = (e) => {
          e.preventDefault()
          if (e.repeat && !repeat) return
          fn()
        }
    }
    for (const k of verdictKeys) if (k.key) bind([k.key], () => ref.current.verdict(k.verdict))
    bind(KEYS.next, () => ref.current.next(), true)
    bind(KEYS.prev, () => ref.current.prev(), true)
    bind(KEYS.nextUnlabelled, () => ref.current.nextUnlabelled())
    bind(KEYS.undo, () => ref.current.undo())
    bind(KEYS.note, () => ref.current.note())
    bind(KEYS.attachEvidence, () => ref.current.attachEvidence())
    bind(KEYS.nextVariant, () => ref.current.nextVariant())
    bind(KEYS.prevVariant, () => ref.current.prevVariant())
    bind(KEYS.nextItem, () => ref.current.nextItem())
    bind(KEYS.prevItem, () => ref.current.prevItem())
    return tinykeys(window, map, { ignore: (e) => e.isComposing || typing(e) })
  }, [keyList, enabled])
}
