import type { ViewProps } from '../types'

/** Placeholder until the compare view lands. */
export function CompareView(_props: ViewProps) {
  return <p>The compare view is not built yet.</p>
}
