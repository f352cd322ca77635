import type { Migration } from './types'

/**
 * FaaF and the batched RefChecker checker now read a reply with one invalid argument as N/A for
 * every fact of its call (shared/naScope.ts), and each new run records that rule in its settings.
 * Runs from before read such replies argument by argument, and recorded nothing: here they are
 * given `field`, so a resumed run reads its remaining replies as it read the first ones, and runs
 * read by either rule are never grouped together as repeats of one config.
 */
export const migration0400: Migration = {
  version: 400,
  name: 'na-scope-of-earlier-runs',
  up: `
UPDATE runs
SET config = CASE
    WHEN json_type(config, '$.settings') = 'object' THEN json_set(config, '$.settings.naScope', 'field')
    ELSE json_set(config, '$.settings', json('{"naScope":"field"}'))
  END
WHERE kind = 'judge'
  AND method IN ('faaf-tf', 'faaf-tfn', 'faaf-tf-cite', 'faaf-tfn-cite', 'refchecker-batched')
  AND json_valid(config)
  AND json_extract(config, '$.settings.naScope') IS NULL;
`,
}
