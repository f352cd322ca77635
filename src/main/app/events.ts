import type { EventName, EventPayload } from '../../shared/contract'

type Listener = (name: EventName, payload: unknown) => void

/** Typed fan-out of main-process events to whichever transports are listening. */
export class EventBus {
  private readonly listeners = new Set<Listener>()

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const l of this.listeners) l(name, payload)
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
