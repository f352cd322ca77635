import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { z } from 'zod'
import type { Viewer } from '../../shared/contract/viewer'

/** Per-browser preferences; what is labelled lives in the workspace, not here. */
export const Settings = z.object({
  annotatorId: z.number().int().nullable().default(null),
  annotatorName: z.string().nullable().default(null),
  /** Judge and other annotators' verdicts stay hidden until I have labelled the target. */
  blind: z.boolean().default(true),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  /** Reference pane share of the text area, 0.2–0.8. */
  split: z.number().min(0.2).max(0.8).default(0.5),
  unitsWidth: z.number().min(260).max(800).default(380),
})
export type Settings = z.infer<typeof Settings>

const KEY = 'factlab.settings'

export function loadSettings(): Settings {
  try {
    const parsed = Settings.safeParse(JSON.parse(localStorage.getItem(KEY) ?? '{}'))
    if (parsed.success) return parsed.data
  } catch {
    // A hand-edited or foreign value: start from the defaults rather than fail to open.
  }
  return Settings.parse({})
}

interface SettingsApi {
  settings: Settings
  update(patch: Partial<Settings>): void
}

export const SettingsContext = createContext<SettingsApi>({ settings: Settings.parse({}), update: () => {} })

export function useSettings(): SettingsApi {
  return useContext(SettingsContext)
}

/** Who is looking and whether blind mode is on: main hides what blind mode keeps back. */
export function useViewer(): Viewer {
  const { settings } = useSettings()
  return useMemo(
    () => ({ annotatorId: settings.annotatorId, blind: settings.blind }),
    [settings.annotatorId, settings.blind],
  )
}

export function useSettingsStore(): SettingsApi {
  const [settings, setSettings] = useState(loadSettings)
  const update = useCallback((patch: Partial<Settings>) => {
    setSettings((s) => {
      const next = { ...s, ...patch }
      localStorage.setItem(KEY, JSON.stringify(next))
      return next
    })
  }, [])
  useEffect(() => {
    // "system" leaves the choice to prefers-color-scheme in the stylesheet.
    if (settings.theme === 'system') delete document.documentElement.dataset.theme
    else document.documentElement.dataset.theme = settings.theme
  }, [settings.theme])
  return { settings, update }
}
