/**
 * Runs `fn` over `items` with at most `size` in flight. Stops handing out items once `signal`
 * aborts; the first error that is not a stop is re-thrown after the workers have drained.
 */
export async function runPool<T>(
  items: readonly T[],
  size: number,
  signal: AbortSignal,
  fn: (item: T) => Promise<void>,
  isStop: (error: unknown) => boolean,
  onFatal: () => void,
): Promise<void> {
  let next = 0
  let failure: unknown = null
  const worker = async () => {
    while (!signal.aborted && failure === null && next < items.length) {
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
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker))
  if (failure !== null) throw failure
}
