import { type RefObject, useLayoutEffect, useState } from 'react'

/**
 * Whether the element is narrower than `width` px, followed as the window changes: the Compare
 * table folds its secondary columns into their neighbours below that, so a 1024 px window shows
 * every figure without scrolling sideways.
 */
export function useNarrowerThan(ref: RefObject<HTMLElement | null>, width: number): boolean {
  const [narrow, setNarrow] = useState(false)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const check = () => setNarrow(el.clientWidth < width)
    check()
    const watch = new ResizeObserver(check)
    watch.observe(el)
    return () => watch.disconnect()
  }, [ref, width])
  return narrow
}
