import { useState } from 'react'
import type { QueuePage } from '../../../../shared/contract/agreement'
import { countOf } from '../../../../shared/plural'
import { api } from '../../api'

/**
 * What blind mode keeps from the adjudicator, and the two ways past it: label the target
 * first, or step out of labelling this dataset for good. Also the dataset's self-adjudication
 * switch, since it decides which of the listed targets this person may decide.
 */
export function BlindBar(p: {
  datasetId: number
  adjudicatorId: number | null
  page: QueuePage
  blind: boolean
  onChange(): void
}) {
  const [error, setError] = useState<string | null>(null)
  // Stepping out cannot be undone, so the button asks once more before it acts.
  const [confirming, setConfirming] = useState(false)
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn()
      setError(null)
      p.onChange()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const adjudicatorId = p.adjudicatorId
  return (
    <div className="agr-blind" data-testid="agr-blind">
      {p.blind && p.page.hidden > 0 && (
        <p>
          Blind mode keeps {countOf(p.page.hidden, 'dispute')} on targets you have not labelled out of this
          list. Label them first, or step out of labelling this dataset to adjudicate it (your labels here are
          then no longer taken).{' '}
          {adjudicatorId !== null && !confirming && (
            <button type="button" onClick={() => setConfirming(true)}>
              Step out of labelling to adjudicate
            </button>
          )}
          {adjudicatorId !== null && confirming && (
            <span className="confirm-inline">
              For good: this cannot be undone.{' '}
              <button
                type="button"
                className="danger"
                onClick={() =>
                  void act(() =>
                    api('agreement.stepOut', { datasetId: p.datasetId, annotatorId: adjudicatorId }),
                  )
                }
              >
                Step out for good
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </span>
          )}
        </p>
      )}
      <label className="agr-hint">
        <input
          type="checkbox"
          checked={p.page.allowSelfAdjudication}
          onChange={(e) =>
            void act(() =>
              api('agreement.setSelfAdjudication', { datasetId: p.datasetId, allow: e.target.checked }),
            )
          }
        />{' '}
        Adjudicators may decide targets they labelled themselves (such decisions are marked)
      </label>
      {error && <p className="agr-error">{error}</p>}
    </div>
  )
}
