import { modeWord, repeatWord } from '../../shared/runNames'

/**
 * A run's name in lists and charts: model, method, batch mode, repeat and id (pure, for the
 * lists' worker too). A batch run is marked: it costs about half a call-by-call run of the same
 * config, and the two would otherwise read alike.
 */
export function runLabel(r: {
  id: number
  model: string
  method: string
  repeat_index: number
  mode: 'sync' | 'batch'
}): string {
  const marks = [modeWord(r.mode), repeatWord(r.repeat_index)].filter((m) => m !== null)
  return `${[r.model, r.method, ...marks].join(' · ')} (#${r.id})`
}
