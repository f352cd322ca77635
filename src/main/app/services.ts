// app/ owns an open workspace and what is built on it. This file is the composition root: the one
// place that builds the services of an open workspace. The Electron shell, the browser-mode server
// and the CLI all get their workspace and run engine from here (through AppContext in context.ts),
// so there is one engine per open workspace whichever process drives it, and its runs' leases name
// that process. errors.ts holds ServiceError, the refusal every service may throw.
import { resumeOpenBatches } from '../batches/resume'
import { BUILTIN_REGISTRY } from '../runs/builtin'
import { RunEngine, type RunProgress } from '../runs/engine'
import type { RunDriver } from '../runs/leaseRules'
import { Workspace } from './workspace'

export interface ServicesOptions {
  /** Who drives runs from this process: `app` (Electron), `browser` (npm run serve) or `cli`. */
  driver: RunDriver
  onProgress?: (p: RunProgress) => void
  /** Told when a run was taken over from a driver that had vanished or fallen silent. */
  onNotice?: (runId: number, message: string) => void
  /** Check a large workspace's integrity in the background instead of before it opens. */
  deferLargeCheck?: boolean
  /** Open a read-only copy when SQLite may not write beside the file (see OpenOptions). */
  readOnlyCopy?: boolean
}

/** An open workspace and the services built on it, built once and closed together. */
export class WorkspaceServices {
  private constructor(
    readonly workspace: Workspace,
    readonly runs: RunEngine,
  ) {}

  static open(file: string, opts: ServicesOptions): WorkspaceServices {
    const workspace = Workspace.open(file, {
      deferLargeCheck: opts.deferLargeCheck ?? false,
      readOnlyCopy: opts.readOnlyCopy ?? false,
    })
    const runs = new RunEngine({
      db: workspace.db,
      registry: BUILTIN_REGISTRY,
      driver: opts.driver,
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.onNotice ? { onNotice: opts.onNotice } : {}),
    })
    // The app and browser mode pick up batch runs whose process died while the provider worked
    // on them; a CLI command only drives the run it was asked to.
    if (opts.driver !== 'cli') resumeOpenBatches(workspace, runs)
    return new WorkspaceServices(workspace, runs)
  }

  /**
   * Pauses the runs this process drives, waits until each has written its state and given up
   * its lease, then closes the file: a run left behind by File › Open resumes later from where
   * it stopped instead of failing on a closed database.
   */
  async dispose(): Promise<void> {
    await this.runs.pauseAll()
    this.workspace.close()
  }

  /** Closes at once (the process is ending): an unfinished run's lease dies with the process. */
  close(): void {
    this.workspace.close()
  }
}
