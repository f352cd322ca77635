import type { FactlabBridge } from '../shared/contract'

declare global {
  interface Window {
    /** Set by the preload in the desktop app; absent in browser mode. */
    factlab?: FactlabBridge
  }
}
