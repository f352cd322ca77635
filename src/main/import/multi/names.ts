import { basename, dirname, extname } from 'node:path'

/** One file of a multi-file import and the candidate variant its rows become. */
export interface FilePart {
  file: string
  variant: string
  /** RefChecker's `<source>_<model>_answers` naming: the question source (nq, msmarco, dolly…). */
  source?: string
  /** The folder the file sits in: RefChecker's setting (zero_context, noisy_context…). */
  setting?: string
}

// RefChecker's released annotations: `<source>_<model>_answers.json`, sources without an underscore.
const REFCHECKER_NAME = /^([^_]+)_(.+)_answers$/

function stem(file: string): string {
  return basename(file, extname(file))
}

/**
 * Variant names for files imported together: the model for RefChecker's naming, else the file's
 * stem. Names that would clash are made longer (source, then setting) until they do not; files
 * whose names still clash are refused by the caller.
 */
export function nameParts(files: readonly string[], shown: readonly string[] = files): FilePart[] {
  const parsed = files.map((file, i) => {
    // Uploaded files sit in temporary folders: their names come from what the person picked.
    const name = shown[i] ?? file
    const s = stem(name)
    const m = REFCHECKER_NAME.exec(s)
    const folder = basename(dirname(name))
    const setting = folder === '.' || folder === '' ? undefined : folder
    return m
      ? { file, short: m[2]!, medium: `${m[1]}_${m[2]}`, source: m[1]!, setting }
      : { file, short: s, medium: s, source: undefined, setting }
  })
  const unique = (names: string[]) => new Set(names).size === names.length
  const pick = (level: (p: (typeof parsed)[number]) => string) => parsed.map(level)
  let names = pick((p) => p.short)
  if (!unique(names)) names = pick((p) => p.medium)
  if (!unique(names)) names = pick((p) => (p.setting ? `${p.setting}/${p.medium}` : p.medium))
  return parsed.map((p, i) => ({
    file: p.file,
    variant: names[i]!,
    ...(p.source ? { source: p.source } : {}),
    ...(p.setting ? { setting: p.setting } : {}),
  }))
}

/** Dataset-level metadata gathered from the parts: the settings and sources they came from. */
export function partsMetadata(parts: readonly FilePart[]): Record<string, unknown> {
  const settings = [...new Set(parts.map((p) => p.setting).filter((s): s is string => !!s))]
  const sources = [...new Set(parts.map((p) => p.source).filter((s): s is string => !!s))]
  return {
    ...(settings.length === 1 ? { setting: settings[0] } : settings.length ? { settings } : {}),
    ...(sources.length === 1 ? { source: sources[0] } : sources.length ? { sources } : {}),
  }
}
