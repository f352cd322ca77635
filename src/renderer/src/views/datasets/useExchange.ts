import { useCallback, useEffect, useRef, useState } from 'react'
import { message } from './ExchangeParts'

/** The life of a dialog's one action: running, refused (with the reason kept to show), or done. */
export function useTask<T>() {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [result, setResult] = useState<T | null>(null)
  const run = useCallback(async (work: () => Promise<T>) => {
    setBusy(true)
    setFailure(null)
    try {
      setResult(await work())
    } catch (e) {
      setFailure(message(e))
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, failure, result, run, setFailure }
}

/**
 * A path main suggests (new each time, named with the time, so nothing is overwritten), filled in
 * once unless the person has typed one already. `key` names what the suggestion depends on.
 */
export function useSuggestedPath(key: string, load: () => Promise<string>, onFailure: (why: string) => void) {
  const [path, setPath] = useState('')
  const latest = useRef({ load, onFailure })
  latest.current = { load, onFailure }
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is what the suggestion depends on
  useEffect(() => {
    let stale = false
    latest.current.load().then(
      (suggested) => !stale && setPath((typed) => typed || suggested),
      (e) => !stale && latest.current.onFailure(message(e)),
    )
    return () => {
      stale = true
    }
  }, [key])
  return [path, setPath] as const
}
