import { z } from 'zod'
import { EvidenceSpan, UnitKind } from '../../shared/domain'

/**
 * An annotation bundle: one annotator's labels on one dataset, as JSON lines. The first line
 * is the header; every other line is one label. Targets are named by content (item ext_id,
 * candidate variant, unit kind + text, and which occurrence of that text) because row ids
 * differ between two workspaces that imported the same file.
 */
export const BUNDLE_FORMAT = 'factlab-bundle'
export const BUNDLE_VERSION = 1

export const BundleHeader = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  dataset: z.object({ name: z.string(), contentHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  annotator: z.object({ name: z.string().trim().min(1) }),
  exportedAt: z.string(),
  labels: z.number().int().nonnegative(),
})
export type BundleHeader = z.infer<typeof BundleHeader>

export const TargetKey = z.object({
  item: z.string(),
  variant: z.string(),
  kind: UnitKind,
  unit: z.string(),
  /** 0 for the first unit with this kind and text in its item/candidate, 1 for a repeat, … */
  occurrence: z.number().int().nonnegative(),
})
export type TargetKey = z.infer<typeof TargetKey>

export const LabelState = z.object({
  verdict: z.string().nullable(),
  evidence: z.array(EvidenceSpan),
  note: z.string().nullable(),
  seconds: z.number().nonnegative(),
})
export type LabelState = z.infer<typeof LabelState>

export const HistoryState = LabelState.extend({ action: z.string(), at: z.string() })
export type HistoryState = z.infer<typeof HistoryState>

export const BundleLabel = LabelState.extend({
  target: TargetKey,
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(HistoryState),
})
export type BundleLabel = z.infer<typeof BundleLabel>

/** Two label states are the same if a person would see no difference between them. */
export function sameState(
  a: Pick<LabelState, 'verdict' | 'evidence' | 'note'>,
  b: Pick<LabelState, 'verdict' | 'evidence' | 'note'>,
): boolean {
  return (
    a.verdict === b.verdict && (a.note ?? null) === (b.note ?? null) && sameEvidence(a.evidence, b.evidence)
  )
}

function sameEvidence(a: LabelState['evidence'], b: LabelState['evidence']): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => s.pane === b[i]!.pane && s.start === b[i]!.start && s.end === b[i]!.end)
  )
}
