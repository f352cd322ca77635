import type { ViewProps } from '../types'

/** Placeholder until the agreement view lands. */
export function AgreementView(_props: ViewProps) {
  return <p>The agreement view is not built yet.</p>
}
