import type { ServerResponse } from 'node:http'
import type { EventBus } from '../app/events'

/** Comments every so often keep idle proxies and the browser from dropping a quiet stream. */
const HEARTBEAT_MS = 25_000

/**
 * Streams every event of the bus to one browser as `data: {"name", "payload"}` messages.
 * Returns a function that ends the stream (used when the server closes).
 */
export function openEventStream(
  res: ServerResponse,
  bus: EventBus,
  headers: Record<string, string>,
): () => void {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  })
  res.write(': connected\n\n')
  const unsubscribe = bus.subscribe((name, payload) => {
    res.write(`data: ${JSON.stringify({ name, payload })}\n\n`)
  })
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS)
  heartbeat.unref()
  let ended = false
  const end = (): void => {
    if (ended) return
    ended = true
    clearInterval(heartbeat)
    unsubscribe()
    res.end()
  }
  res.on('close', end)
  return end
}
