import type { RunEngine } from '../runs/engine'
import type { RunDriver } from '../runs/leaseRules'
import { EventBus } from './events'
import { WorkspaceServices } from './services'
import type { Workspace } from './workspace'

export interface AppContextOptions {
  driver: RunDriver
  /** Told when a run was taken over from a driver that had vanished or fallen silent. */
  onNotice?: (runId: number, message: string) => void
  /** Open a read-only copy when SQLite may not write beside the file (the CLI's reading commands). */
  readOnlyCopy?: boolean
}

/**
 * What every handler gets: the services of the current workspace (File › Open can switch it)
 * and the event bus. Handlers read `ctx.workspace` / `ctx.runs` on each call rather than holding
 * on to them, so a switch reaches every handler at once.
 */
export class AppContext {
  readonly events = new EventBus()
  private current: WorkspaceServices

  constructor(
    file: string,
    private readonly opts: AppContextOptions,
  ) {
    this.current = this.build(file)
  }

  /** Who drives this context: the desktop app, the browser-mode server, or one CLI command. */
  get driver(): RunDriver {
    return this.opts.driver
  }

  /**
   * Opens a workspace's services. A large workspace is checked in the background; if the check
   * finds damage, the workspace turns read-only (every later write fails with a message) and
   * listeners hear it.
   */
  private build(file: string): WorkspaceServices {
    const services = WorkspaceServices.open(file, {
      driver: this.opts.driver,
      onProgress: (p) => this.events.emit('runs.progress', p),
      ...(this.opts.onNotice ? { onNotice: this.opts.onNotice } : {}),
      deferLargeCheck: true,
      readOnlyCopy: this.opts.readOnlyCopy ?? false,
    })
    const ws = services.workspace
    void ws.integrity?.then((r) => {
      if (r.ok || !ws.db.open) return
      ws.db.pragma('query_only = ON')
      process.stderr.write(`FactLab: ${file} failed its integrity check: ${r.problem}\n`)
      this.events.emit('workspace.damaged', { file, problem: r.problem })
    })
    return services
  }

  get services(): WorkspaceServices {
    return this.current
  }

  get workspace(): Workspace {
    return this.current.workspace
  }

  /** The run engine of the current workspace. */
  get runs(): RunEngine {
    return this.current.runs
  }

  /**
   * Opens another workspace and makes it current; the previous one's runs are paused (so their
   * leases are released and they resume later) before its file is closed.
   */
  async switchTo(file: string): Promise<Workspace> {
    const next = this.build(file)
    const previous = this.current
    this.current = next
    this.events.emit('workspace.changed', { file })
    await previous.dispose()
    return next.workspace
  }

  close(): void {
    this.current.close()
  }
}
