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
function useSuggestedPath(key: string, load: () => Promise<string>, onFailure: (why: string) => void) {
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

/**
 * A dialog that writes one file or folder: the path field (suggested by main, see above), the
 * write itself with its busy/refused/done states, and `save`, which passes the typed path
 * (trimmed; undefined when left empty, so main picks its default).
 */
export function useSaveFile<T>(
  key: string,
  suggest: () => Promise<string>,
  write: (out: string | undefined) => Promise<T>,
) {
  const task = useTask<T>()
  const [path, setPath] = useSuggestedPath(key, suggest, task.setFailure)
  const save = () => {
    const out = path.trim()
    void task.run(() => write(out === '' ? undefined : out))
  }
  return { path, setPath, save, busy: task.busy, failure: task.failure, result: task.result }
}
