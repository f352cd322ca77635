import type { Migration } from './types'

/** `annotators.id` is held by no row of this table's `annotator_id` column. */
const unused = (table: string, column = 'annotator_id') =>
  `NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.${column} = annotators.id)`

/**
 * RefChecker's released human labels were imported under a person named "refchecker" until they
 * became the dataset's reference labels (a source, as WikiEvalFacts' and MRPC's are). Such a
 * person is turned into the source, so nobody is offered it as "who is labelling" any more and
 * later RefChecker imports share it. Only when the name has been nothing but that: every label it
 * ever gave came with a RefChecker import, and it never adjudicated, was assigned, handed a package,
 * read guidelines or stepped out. A "refchecker" that someone labelled as (or used in any of those
 * ways) stays a person: their own verdicts are not to be relabelled as the dataset's; a later
 * RefChecker import then keeps its labels under a source of another name (import/sink.ts).
 */
export const migration0250: Migration = {
  version: 250,
  name: 'refchecker-source',
  up: `
UPDATE annotators SET kind = 'source'
WHERE name = 'refchecker' AND kind = 'person'
  AND EXISTS (SELECT 1 FROM label_history h WHERE h.annotator_id = annotators.id)
  AND NOT EXISTS (
    SELECT 1 FROM label_history h
    LEFT JOIN targets t ON t.id = h.target_id
    LEFT JOIN datasets d ON d.id = t.dataset_id
    WHERE h.annotator_id = annotators.id
      AND (h.action <> 'import' OR json_extract(d.source, '$.preset') IS NOT 'refchecker'))
  AND ${unused('gold', 'adjudicator_id')}
  AND ${unused('gold_history', 'adjudicator_id')}
  AND ${unused('plan_annotators')}
  AND ${unused('assignments')}
  AND ${unused('packages')}
  AND ${unused('package_opened')}
  AND ${unused('guidelines_read')}
  AND ${unused('adjudicator_stepouts')};
`,
}
