import { api } from './api'
import { workspaceInfo } from './workspaceInfo'

/**
 * The reads the window makes at every start, whatever view it opens on: who may label (the gate
 * lists names from them) and the datasets' names (the sidebar). Sent before React draws anything,
 * so the server answers them while the page renders for the first time, instead of after that
 * render's effects run.
 */
const SEND = {
  'workspace.annotators': () => api('workspace.annotators', {}),
  'workspace.labellers': () => api('workspace.labellers', {}),
  'datasets.names': () => api('datasets.names', {}),
} satisfies Record<string, () => Promise<unknown>>
type FirstRead = keyof typeof SEND
type Answer<K extends FirstRead> = Awaited<ReturnType<(typeof SEND)[K]>>

const primed = new Map<FirstRead, Promise<unknown>>()

/** Sends the first reads (main.tsx, before the first render). */
export function primeFirstReads(): void {
  for (const name of Object.keys(SEND) as FirstRead[]) {
    const sent: Promise<unknown> = SEND[name]()
    // A failure is the reader's to show; until someone reads it, it must not count as unhandled.
    sent.catch(() => undefined)
    primed.set(name, sent)
  }
  void workspaceInfo().catch(() => undefined)
}

/** The answer to a first read sent at start, once; a read after that (a reload) asks again. */
export function firstRead<K extends FirstRead>(name: K): Promise<Answer<K>> {
  const sent = primed.get(name)
  if (!sent) return SEND[name]() as Promise<Answer<K>>
  primed.delete(name)
  return sent as Promise<Answer<K>>
}
