import type { ViewProps } from '../types'

/** Placeholder until the units view lands. */
export function UnitsView(_props: ViewProps) {
  return <p>The units view is not built yet.</p>
}
