import type { Action, KeyEnv, KeyUse } from './types'

/** One bound key: the action it runs and the argument a press gives it. */
export interface KeyRow extends KeyUse<unknown> {
  action: Action<unknown>
}

/** Every key of `actions` in the open dataset, in the actions' order. */
export function keyTable(actions: readonly Action<unknown>[], env: KeyEnv): KeyRow[] {
  return actions.flatMap((action) => {
    const uses: KeyUse<unknown>[] =
      action.bindings?.(env) ??
      action.keys.map((key) => ({ key, label: action.label, hint: action.hint, arg: () => undefined }))
    return uses.map((u) => ({ ...u, action }))
  })
}

/** A footer entry: "j/k move", "1 True". */
export interface Hint {
  keys: string[]
  hint: string
}

/** At most this many footer entries per action (a 0–9 scale would fill the footer with digits). */
const HINTS_PER_ACTION = 6

/**
 * The footer: the first key of each action that has a hint (j, not ↓ as well), and neighbouring
 * actions sharing a hint on one entry ("j/k move", "[/] item").
 */
export function footerHints(rows: readonly KeyRow[]): Hint[] {
  const out: Hint[] = []
  let action: Action<unknown> | null = null
  let seen = new Set<string>()
  for (const r of rows) {
    if (!r.hint) continue
    if (r.action !== action) {
      action = r.action
      seen = new Set()
    }
    if (seen.has(r.hint) || seen.size >= HINTS_PER_ACTION) continue
    seen.add(r.hint)
    const last = out[out.length - 1]
    // Shared only across actions: two digits of one action with the same hint stay apart.
    if (last && last.hint === r.hint && seen.size === 1) last.keys.push(r.key)
    else out.push({ keys: [r.key], hint: r.hint })
  }
  return out
}

/** A cheat-sheet line: what it does and every key that does it. */
export interface SheetLine {
  label: string
  keys: string[]
}

/** Every key, one line per label (so each verdict gets its own line, "Next unit" lists j and ↓). */
export function sheetLines(rows: readonly KeyRow[]): SheetLine[] {
  const out: SheetLine[] = []
  for (const r of rows) {
    const line = out.find((l) => l.label === r.label)
    if (line) line.keys.push(r.key)
    else out.push({ label: r.label, keys: [r.key] })
  }
  return out
}

const MAC_MODS: Record<string, string> = { $mod: '⌘', Shift: '⇧', Alt: '⌥', Control: '⌃', Meta: '⌘' }

const NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
}

/** A tinykeys string as a person reads it: "$mod+z" → "Ctrl+Z" (⌘Z on a Mac), "[Shift]+?" → "?". */
export function keyName(key: string, mac: boolean): string {
  const parts = key.split(/(?<=\w|\])\+/)
  const last = parts.pop() ?? key
  const mods = parts
    .filter((m) => !m.startsWith('['))
    .map((m) => (mac ? (MAC_MODS[m] ?? m) : m === '$mod' ? 'Ctrl' : m))
  const name = NAMES[last] ?? (last.length === 1 && mods.length > 0 ? last.toUpperCase() : last)
  if (mods.length === 0) return name
  return mac ? `${mods.join('')}${name}` : `${[...mods, name].join('+')}`
}
