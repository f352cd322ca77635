import { useEffect, useRef } from 'react'
import { tinykeys } from 'tinykeys'
import type { UnitEntry, UnitsPage } from '../../../../shared/contract/units'
import type { UnitGroup } from './grouping'
import type { UnitActions } from './UnitList'
import type { RowMode } from './UnitRow'

interface KeyState {
  flat: UnitEntry[]
  lists: { group: UnitGroup }[]
  focusedId: number | null
  mode: { unitId: number; mode: RowMode } | null
  actions: UnitActions
  data: UnitsPage | undefined
  goItem(itemId: number | null): void
}

/**
 * Keyboard for the units review. Bound once; each key reads the latest state through a ref,
 * and tinykeys leaves keys typed into text boxes alone.
 */
export function useUnitKeys(state: KeyState): void {
  const ref = useRef(state)
  ref.current = state
  useEffect(() => {
    const focused = () => {
      const s = ref.current
      return s.flat.find((u) => u.id === s.focusedId) ?? null
    }
    const step = (by: number) => {
      const s = ref.current
      if (s.flat.length === 0) return
      const i = s.flat.findIndex((u) => u.id === s.focusedId)
      const next = i < 0 ? 0 : Math.min(Math.max(i + by, 0), s.flat.length - 1)
      s.actions.focus(s.flat[next]!.id)
    }
    const withFocused = (fn: (u: UnitEntry, s: KeyState) => void) => (e: KeyboardEvent) => {
      const u = focused()
      if (!u || ref.current.mode) return
      e.preventDefault()
      fn(u, ref.current)
    }
    const groupOf = (u: UnitEntry, s: KeyState) =>
      s.lists.find((l) => l.group.units.some((x) => x.id === u.id))
    const edit = withFocused((u, s) => s.actions.setMode(u.id, 'edit'))
    const remove = withFocused((u, s) => s.actions.remove(u))
    const move = (by: -1 | 1) =>
      withFocused((u, s) => {
        const g = groupOf(u, s)
        if (g) s.actions.move(g.group, u.id, by)
      })
    const bindings: [string, (e: KeyboardEvent) => void][] = [
      ['j', () => step(1)],
      ['ArrowDown', () => step(1)],
      ['k', () => step(-1)],
      ['ArrowUp', () => step(-1)],
      ['e', edit],
      ['Enter', edit],
      ['s', withFocused((u, s) => s.actions.setMode(u.id, 'split'))],
      ['h', withFocused((u, s) => s.actions.setMode(u.id, 'history'))],
      ['x', remove],
      ['Delete', remove],
      ['m', withFocused((u, s) => s.actions.toggleSelect(u.id))],
      ['Alt+ArrowUp', move(-1)],
      ['Alt+ArrowDown', move(1)],
      [
        'Escape',
        () => {
          const s = ref.current
          if (s.mode) s.actions.setMode(s.mode.unitId, null)
        },
      ],
      ['[', () => ref.current.goItem(ref.current.data?.prevItemId ?? null)],
      [']', () => ref.current.goItem(ref.current.data?.nextItemId ?? null)],
    ]
    return tinykeys(window, Object.fromEntries(bindings))
  }, [])
}
