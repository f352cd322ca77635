import { useState } from 'react'
import { countOf } from '../../../../shared/plural'
import { stoppedImportText } from '../../../../shared/stoppedImport'
import { api } from '../../api'
import { useQuery } from '../../hooks'
import { message } from './ExchangeParts'

/**
 * Imports that stopped part-way (a full disk) and kept their rows, hidden: said above the list
 * one list item each with its Withdraw button, so the space and the name they hold are not a mystery. `onWithdrawn`
 * is told after a withdrawal (the name is free for a new import).
 */
export function StoppedImports({ onWithdrawn }: { onWithdrawn(): void }) {
  const stopped = useQuery(() => api('datasets.stoppedImports', {}), [])
  const [busy, setBusy] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  if (!stopped.data?.length) return null
  async function withdraw(datasetId: number) {
    setBusy(datasetId)
    setProblem(null)
    try {
      await api('datasets.withdrawImport', { datasetId })
      stopped.reload()
      onWithdrawn()
    } catch (e) {
      setProblem(message(e))
    } finally {
      setBusy(null)
    }
  }
  const count = stopped.data.length
  return (
    <section className="notice-box stopped-imports" aria-label="Incomplete imports">
      {count > 1 && <p>{countOf(count, 'import')} stopped part-way:</p>}
      <ul className="stopped-import-list">
        {stopped.data.map((s) => (
          <li key={s.datasetId} className="stopped-import">
            <p>{stoppedImportText(s)}</p>
            <button
              type="button"
              className="danger"
              onClick={() => void withdraw(s.datasetId)}
              disabled={busy !== null}
            >
              {busy === s.datasetId ? 'Withdrawing…' : `Withdraw “${s.name}”`}
            </button>
          </li>
        ))}
      </ul>
      {problem && (
        <p role="alert" className="error-text">
          Nothing was withdrawn: {problem}
        </p>
      )}
    </section>
  )
}
