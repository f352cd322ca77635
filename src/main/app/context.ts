import { EventBus } from './events'
import { Workspace } from './workspace'

/**
 * What every handler gets: the current workspace (File › Open can switch it) and the event bus.
 * Handlers read `ctx.workspace` on each call rather than holding on to it.
 */
export class AppContext {
  readonly events = new EventBus()
  private current: Workspace

  constructor(file: string) {
    this.current = Workspace.open(file)
  }

  get workspace(): Workspace {
    return this.current
  }

  switchTo(file: string): Workspace {
    const next = Workspace.open(file)
    this.current.close()
    this.current = next
    this.events.emit('workspace.changed', { file })
    return next
  }

  close(): void {
    this.current.close()
  }
}
