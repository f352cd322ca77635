import { dcrCandidates } from '../metrics/dcrCandidates'
import { ST_OK } from '../metrics/load'
import { strictLabel } from '../metrics/refchecker/evaluate'
import { datasetSnapshot } from '../metrics/snapshot'
import { SUPPORTED } from '../metrics/stats/binary'
import { REFCHECKER_CLASSES, type RefClass } from '../metrics/stats/methods'
import type { Db } from '../store/connection'
import { datasetSettings, getDataset } from '../store/repos/datasets'

/**
 * One row per response (candidate) of a RefChecker or DCR dataset, from the human labels (gold)
 * or from one run: RefChecker's per-response triplet counts, strict label and hallucination
 * flag; DCR's sentence marks and score Z = (Σ s_i − α) / (n − β), rescaled (Z + 1) / 2.
 * Null for other schemas.
 */
export type ResponseRow = Record<string, string | number | boolean | null>

export function perResponseKind(db: Db, datasetId: number): 'refchecker' | 'dcr' | null {
  // The dataset's schema alone decides; loading the metrics snapshot to read it cost a full
  // pass over the targets on every export of a dataset with neither schema.
  const s = getDataset(db, datasetId).labelSchema
  if (s.type !== 'categorical') return null
  return s.name === 'refchecker' ? 'refchecker' : s.name === 'dcr' ? 'dcr' : null
}

export function perResponseRows(db: Db, datasetId: number, runId: number | null): ResponseRow[] | null {
  const kind = perResponseKind(db, datasetId)
  if (!kind) return null
  const { t, columns } = datasetSnapshot(db, datasetId)
  const run = runId === null ? null : (columns.get(runId) ?? null)
  if (runId !== null && !run) return []
  const code = (i: number) => (run ? (run.status[i] === ST_OK ? run.code[i]! : -1) : t.goldCode[i]!)
  const bin = (i: number) => (run ? (run.status[i] === ST_OK ? run.bin[i]! : -1) : t.goldBin[i]!)
  const candidates = db
    .prepare(
      `SELECT c.id AS id, i.ext_id AS itemId, c.variant AS variant FROM candidates c
       JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    )
    .all(datasetId) as { id: number; itemId: string; variant: string }[]
  const targets = new Map<number, number[]>()
  for (let i = 0; i < t.ids.length; i++) {
    const c = t.candidate[i]!
    const list = targets.get(c)
    if (list) list.push(i)
    else targets.set(c, [i])
  }
  const source = runId === null ? 'human' : `run:${runId}`
  if (kind === 'refchecker')
    return candidates.map((c) => {
      const idx = targets.get(c.id) ?? []
      const labels = idx
        .map((i) => (code(i) >= 0 ? t.labels[code(i)] : undefined))
        .filter((l): l is RefClass => (REFCHECKER_CLASSES as readonly string[]).includes(l ?? ''))
      const count = (k: RefClass) => labels.filter((l) => l === k).length
      return {
        item_id: c.itemId,
        variant: c.variant,
        source,
        triplets: idx.length,
        labelled: labels.length,
        entailment: count('entailment'),
        neutral: count('neutral'),
        contradiction: count('contradiction'),
        abstained: idx.length === 0,
        hallucinated: labels.length === 0 ? null : count('contradiction') > 0,
        strict_label: strictLabel(labels),
      }
    })
  const { alpha, beta } = datasetSettings(db, datasetId)
  // No score where a sentence is unmarked, as the judge and the metrics give none.
  const scored = dcrCandidates(t, (i) => (bin(i) < 0 ? 0 : bin(i) === SUPPORTED ? 1 : -1), alpha, beta)
  return candidates.map((c) => {
    const d = scored.get(c.id)
    const s = d?.score ?? null
    return {
      item_id: c.itemId,
      variant: c.variant,
      source,
      sentences: d?.sentences ?? 0,
      consistent: d?.consistent ?? 0,
      inconsistent: d?.inconsistent ?? 0,
      unmarked: d ? d.sentences - d.consistent - d.inconsistent : 0,
      z: s?.z ?? null,
      score: s?.score ?? null,
    }
  })
}
