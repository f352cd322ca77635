/**
 * Runs `fn` over `items` with at most `size` in flight. Stops handing out items once `signal`
 * aborts; the first error that is not a stop is re-thrown after the workers have drained.
 *
 * `first` of the workers start at once and the rest a turn of the event loop later. A judge run
 * keeps more tasks in flight than calls (so its calls never wait for a task to be prepared); had
 * they all started together, the ones beyond the concurrency would have prepared their requests,
 * only to wait for a slot, before any of the first wave had gone out.
 */
export async function runPool<T>(
  items: readonly T[],
  size: number,
  signal: AbortSignal,
  fn: (item: T) => Promise<void>,
  isStop: (error: unknown) => boolean,
  onFatal: () => void,
  first: number = size,
): Promise<void> {
  let next = 0
  let failure: unknown = null
  const going = () => !signal.aborted && failure === null && next < items.length
  const worker = async () => {
    while (going()) {
      const item = items[next++] as T
      try {
        await fn(item)
      } catch (error) {
        if (isStop(error)) return
        failure ??= error
        onFatal()
      }
    }
  }
  const count = Math.max(1, Math.min(size, items.length))
  const workers: Promise<void>[] = []
  for (let i = 0; i < Math.min(count, Math.max(1, first)); i++) workers.push(worker())
  if (workers.length < count) {
    await new Promise<void>((resolve) => setImmediate(resolve))
    while (workers.length < count && going()) workers.push(worker())
  }
  await Promise.all(workers)
  if (failure !== null) throw failure
}
