import type { Workspace } from '../app/workspace'
import type { RunEngine } from '../runs/engine'
import { runsWithOpenBatches } from './repo'

/**
 * Restarts, in the background, every batch-mode run left running with a batch still open at the
 * provider (its process was killed or the app quit): results that came in meanwhile are read
 * without anyone asking. A run another live process drives is left to it.
 */
export function resumeOpenBatches(workspace: Workspace, runs: RunEngine): void {
  queueMicrotask(() => {
    if (!workspace.db.open) return
    for (const id of runsWithOpenBatches(workspace.db)) {
      try {
        runs.start(id).catch(() => undefined)
      } catch {
        // Driven by another live process (its lease), or no longer resumable: leave it.
      }
    }
  })
}
