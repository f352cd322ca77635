import type { Migration } from './types'

/**
 * SummEval imports used to keep the five crowd ratings of each summary as five sources, "SummEval
 * crowd 1" to "5", as if the same five people had rated every summary (the release has different
 * workers per summary), so they entered the agreement figures as raters and outvoted the three
 * experts in the default gold. The import now keeps them on the summary only (import/presets/
 * nested.ts). Here their labels leave the current labels where the summary's metadata still holds
 * the released `turker_annotations` (every rating, as imported); label_history keeps each one as
 * well. Nothing a person labelled is touched: only these sources' labels, which no one can give.
 * The gold rule is left as the dataset's owner set it: with the crowd gone, the default majority
 * is the experts' until people label; the Gold rule panel (or `gold-rule --of sources`) makes it
 * the experts' for good.
 */
export const migration0290: Migration = {
  version: 290,
  name: 'summeval-crowd',
  up: `
DELETE FROM labels
WHERE annotator_id IN (SELECT id FROM annotators WHERE kind = 'source' AND name LIKE 'SummEval crowd %')
  AND target_id IN (
    SELECT t.id FROM targets t
    JOIN datasets d ON d.id = t.dataset_id
    JOIN candidates c ON c.id = t.candidate_id
    WHERE json_extract(d.source, '$.preset') = 'summeval'
      AND json_valid(c.metadata)
      AND json_type(c.metadata, '$.turker_annotations') = 'array');
`,
}
