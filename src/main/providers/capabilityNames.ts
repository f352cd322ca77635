import type { ModelCapabilities } from './types'

type Flag = 'tools' | 'forcedToolChoice' | 'strictSchema' | 'jsonMode' | 'jsonSchema'

/** The on/off capabilities as people write them on the command line. */
export const CAPABILITY_NAMES: Record<string, Flag> = {
  tools: 'tools',
  'forced-tool-choice': 'forcedToolChoice',
  'strict-schema': 'strictSchema',
  'json-mode': 'jsonMode',
  'json-schema': 'jsonSchema',
}

/**
 * `tools,json-schema` → every on/off capability set: the listed ones on, the rest off (`none`
 * turns all off). Throws with the accepted names on an unknown one.
 */
export function parseCapabilityList(raw: string): Pick<ModelCapabilities, Flag> {
  const out: Pick<ModelCapabilities, Flag> = {
    tools: false,
    forcedToolChoice: false,
    strictSchema: false,
    jsonMode: false,
    jsonSchema: false,
  }
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '' && s !== 'none')
  for (const name of names) {
    const flag = CAPABILITY_NAMES[name]
    if (!flag)
      throw new Error(`unknown capability "${name}"; use ${Object.keys(CAPABILITY_NAMES).join(', ')} or none`)
    out[flag] = true
  }
  return out
}

/** The names of the capabilities that are on, in the command line's spelling. */
export function capabilityList(caps: Pick<ModelCapabilities, Flag>): string[] {
  return Object.entries(CAPABILITY_NAMES)
    .filter(([, flag]) => caps[flag])
    .map(([name]) => name)
}
