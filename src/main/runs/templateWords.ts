/*
 * Which template wording a run sends, in words. A run keeps the template versions it was created
 * with (runs/create.ts snapshotConfig) and sends every call with them: a batch's first requests,
 * the follow-ups built after its answers (DCR's AMC step, a repair retry) and whatever is sent
 * after a resume or a switch to call-by-call alike, as a LangSmith experiment stays pinned to the
 * prompt commit it ran. An edit made while the run is out makes a new version for new runs; this
 * says which version the run uses and that a newer one exists. Pure.
 */

export interface TemplateVersions {
  /** The templates the run's method sends, with the version the run froze (null: the built-in text). */
  used: readonly { name: string; version: number | null }[]
  /** The newest version of each template in the workspace now. */
  latest: Readonly<Record<string, number>>
}

export function templateWords(t: TemplateVersions): string | null {
  if (t.used.length === 0) return null
  const used = t.used.map((u) => (u.version === null ? `${u.name} (built-in)` : `${u.name} v${u.version}`))
  const edited = t.used.filter((u) => u.version !== null && (t.latest[u.name] ?? u.version) > u.version)
  const since =
    edited.length === 0
      ? ''
      : `; edited since (${edited.map((u) => `${u.name} is now v${t.latest[u.name]}`).join(', ')}), which applies to new runs only`
  return `every call uses ${used.join(', ')}, as when the run was created${since}`
}
