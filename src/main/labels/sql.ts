/*
 * Conditions on labels and gold for queries that other folders build around targets, units or
 * items: each is one SQL expression over the given column, so those queries stay one statement
 * (the item list runs them once per item of a dataset).
 */

/** The annotator (named parameter, e.g. `@annotatorId`) has a verdict on the target. */
export const labelledBy = (target: string, annotatorParam: string) =>
  `EXISTS (SELECT 1 FROM labels l WHERE l.target_id = ${target} AND l.annotator_id = ${annotatorParam}
  AND l.verdict IS NOT NULL)`

/** Some annotator has a verdict on the target. */
export const labelled = (target: string) =>
  `EXISTS (SELECT 1 FROM labels l WHERE l.target_id = ${target} AND l.verdict IS NOT NULL)`

/** Some annotator's verdict on the target differs from `verdict` (an SQL expression). */
export const labelDiffersFrom = (target: string, verdict: string) =>
  `EXISTS (SELECT 1 FROM labels l WHERE l.target_id = ${target} AND l.verdict IS NOT NULL AND l.verdict <> ${verdict})`

/**
 * A person's work refers to the target: a label (even one cleared since, as its history keeps
 * it) or a gold decision.
 */
export const targetHasHumanWork = (target: string) =>
  `(EXISTS (SELECT 1 FROM label_history h WHERE h.target_id = ${target})
    OR EXISTS (SELECT 1 FROM labels l WHERE l.target_id = ${target})
    OR EXISTS (SELECT 1 FROM gold g WHERE g.target_id = ${target}))`

/** How many verdicts (cleared labels not counted) the targets of a unit have. */
export const unitLabelCount = (unit: string) =>
  `(SELECT COUNT(*) FROM labels l JOIN targets t ON t.id = l.target_id
      WHERE t.unit_id = ${unit} AND l.verdict IS NOT NULL)`

/**
 * The labels of a target as a JSON array of {a: annotator id, v: verdict, e: evidence, n: note,
 * s: active seconds, g: guidelines version}.
 */
export const labelsJsonOfTarget = (target: string) =>
  `(SELECT json_group_array(json_object('a', l.annotator_id, 'v', l.verdict, 'e', json(l.evidence), 'n', l.note,
      's', l.seconds, 'g', l.guidelines_version))
          FROM labels l WHERE l.target_id = ${target})`
