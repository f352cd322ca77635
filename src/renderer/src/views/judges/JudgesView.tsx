import type { ViewProps } from '../types'

/** Placeholder until the judges view lands. */
export function JudgesView(_props: ViewProps) {
  return <p>The judges view is not built yet.</p>
}
