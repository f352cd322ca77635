import { z } from 'zod'
import { MethodSettings } from '../../shared/contract/judges'
import { GENERATE_METHODS, JUDGE_METHODS } from '../../shared/domain'
import { GENERATOR_TEMPLATES } from '../generate'
import { METHOD_TEMPLATES } from '../judges/registry'

/*
 * What a run ran, read from the config frozen into it when it was created: provider, model,
 * endpoint, method, the method's settings and the versions of the templates it sent. Runs with
 * the same identity are repeats of one another; a judge config edited between two runs makes
 * two identities, whatever its id. Pacing (concurrency, rate limits, retries) changes how fast
 * a run goes, not what it measured, so it is left out.
 */

const Frozen = z.object({
  provider: z.string().optional(),
  model: z.string().optional(),
  baseUrl: z.string().nullable().optional(),
  method: z.string().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  templates: z.record(z.string(), z.object({ version: z.number() }).loose()).optional(),
})

function templateNames(method: string): readonly string[] {
  if ((JUDGE_METHODS as readonly string[]).includes(method))
    return METHOD_TEMPLATES[method as (typeof JUDGE_METHODS)[number]]
  if ((GENERATE_METHODS as readonly string[]).includes(method))
    return GENERATOR_TEMPLATES[method as (typeof GENERATE_METHODS)[number]]
  return []
}

/** A stable key of what a run ran; `row` is the run's own columns, used where the config is bare (imports). */
export function runIdentity(
  configJson: string,
  row: { provider: string; model: string; method: string },
): string {
  let raw: unknown = {}
  try {
    raw = JSON.parse(configJson)
  } catch {
    // A config that does not parse identifies the run by its columns alone.
  }
  const c = Frozen.safeParse(raw).data ?? {}
  const method = c.method ?? row.method
  const settings = MethodSettings.safeParse(c.settings ?? {}).data ?? {}
  const sortedSettings = Object.fromEntries(
    Object.entries(settings)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  )
  const templates = Object.fromEntries(
    templateNames(method).map((name) => [name, c.templates?.[name]?.version ?? null]),
  )
  return JSON.stringify({
    provider: c.provider ?? row.provider,
    model: c.model ?? row.model,
    baseUrl: c.baseUrl ?? null,
    method,
    settings: sortedSettings,
    templates,
  })
}
