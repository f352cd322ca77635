/** A run's name in lists and charts: model, method, repeat and id (pure, for the lists' worker too). */
export function runLabel(r: { id: number; model: string; method: string; repeat_index: number }): string {
  return `${r.model} · ${r.method}${r.repeat_index > 0 ? ` · repeat ${r.repeat_index}` : ''} (#${r.id})`
}
