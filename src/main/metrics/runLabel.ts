import { batchNameWord, repeatWord } from '../../shared/runNames'

/**
 * A run's name in lists and charts: model, method, how its calls were priced, repeat and id
 * (pure, for the lists' worker too). A run answered by a provider batch is marked, wholly or
 * partly: it costs about half a call-by-call run of the same config, and the two would otherwise
 * read alike. The mark comes from its calls, not its mode, which says only how it went last.
 */
export function runLabel(r: {
  id: number
  model: string
  method: string
  repeat_index: number
  /** Calls a provider answered, and of them those a batch answered (runs that sent no batch: 0 and 0). */
  answered_calls: number
  batch_calls: number
}): string {
  const marks = [batchNameWord(r.batch_calls, r.answered_calls), repeatWord(r.repeat_index)].filter(
    (m) => m !== null,
  )
  return `${[r.model, r.method, ...marks].join(' · ')} (#${r.id})`
}
