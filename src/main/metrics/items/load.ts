import { UNIT_KINDS, type UnitKind } from '../../../shared/labelSchemas'
import type { Db } from '../../store/connection'
import type { TargetColumns } from '../load'

/** What item-level figures need beyond the target columns: unit kinds, responses and texts. */
export interface ItemInputs {
  /** unit kind per dense target index */
  kind: UnitKind[]
  responses: {
    candidateId: number
    itemId: number
    extId: string
    variant: string
    /** response and reference texts; empty unless a lexical run needs them */
    text: string
    reference: string
  }[]
  /** lexical runs: the tokeniser they used (for summary-level ROUGE) */
  lexicalTokens: Map<number, 'unicode' | 'ascii'>
}

export function loadItemInputs(
  db: Db,
  datasetId: number,
  t: TargetColumns,
  runIds: readonly number[],
): ItemInputs {
  const kind = new Array<UnitKind>(t.ids.length)
  // One number per target (id · K + kind): no row object per target on a million-target set.
  const K = UNIT_KINDS.length
  const coded = db
    .prepare(
      `SELECT t.id * ${K} + CASE u.kind ${UNIT_KINDS.map((k, c) => `WHEN '${k}' THEN ${c}`).join(' ')} END
       FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = ? ORDER BY t.id`,
    )
    .pluck()
    .all(datasetId) as number[]
  for (const v of coded) {
    const id = Math.floor(v / K)
    const i = id < t.indexOf.length ? t.indexOf[id]! : -1
    if (i >= 0) kind[i] = UNIT_KINDS[v % K]!
  }
  const lexicalTokens = new Map<number, 'unicode' | 'ascii'>()
  const settings = db.prepare(
    `SELECT method, CASE WHEN json_valid(config) THEN json_extract(config, '$.settings.lexicalTokens') END AS tokens
     FROM runs WHERE id = ?`,
  )
  for (const id of runIds) {
    const r = settings.get(id) as { method: string; tokens: string | null } | undefined
    if (r?.method === 'lexical') lexicalTokens.set(id, r.tokens === 'ascii' ? 'ascii' : 'unicode')
  }
  // Texts only for summary-level ROUGE: a large dataset's texts are most of what this would read.
  const texts = lexicalTokens.size > 0 ? 'c.text, i.reference' : "'' AS text, '' AS reference"
  const responses = db
    .prepare(
      `SELECT c.id AS candidateId, i.id AS itemId, i.ext_id AS extId, c.variant, ${texts}
       FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ? ORDER BY i.position, c.id`,
    )
    .all(datasetId) as ItemInputs['responses']
  return { kind, responses, lexicalTokens }
}
