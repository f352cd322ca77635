import { inject } from 'vitest'

/**
 * The workspace files tests start from (test/setup/templates.ts makes them once per run), each
 * closed, so a byte copy of one is the workspace it stands for. Tests copy them, never open them.
 */
export interface Templates {
  /** The file a first start makes: every migration, nothing in it. */
  empty: string
  /** That file with the bundled demo loaded, as a first start shows it. */
  demo: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    workspaceTemplates: Templates
  }
}

/**
 * The templates when this process is one of vitest's workers, null in any other (the bench, a
 * script): `inject` throws there, and helpers that copy a template make the file themselves.
 */
export function providedTemplates(): Templates | null {
  try {
    return templates()
  } catch (e) {
    if (e instanceof Error && e.message.includes('Vitest failed to access its internal state')) return null
    throw e
  }
}

export function templates(): Templates {
  const provided = inject('workspaceTemplates')
  if (!provided)
    throw new Error(
      'No workspace templates: vitest.config.ts must list test/setup/templates.ts in globalSetup.',
    )
  return provided
}
