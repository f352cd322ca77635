import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'

const Rect = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
})
export type Rect = z.infer<typeof Rect>

export const WindowState = Rect.extend({ maximized: z.boolean().default(false) })
export type WindowState = z.infer<typeof WindowState>

export const DEFAULT_SIZE = { width: 1280, height: 820 }
const MIN_VISIBLE = 100

/** The remembered bounds, or null when there are none or the file is unreadable (never fatal). */
export function loadWindowState(file: string): WindowState | null {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return null
  }
  try {
    const parsed = WindowState.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Written through a temporary file so a crash mid-write leaves the old bounds, not half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true })
  const tmp = `${file}.tmp`
  writeFileSync(tmp, JSON.stringify(WindowState.parse(state)))
  renameSync(tmp, file)
}

function overlap(a: Rect, b: Rect): { w: number; h: number } {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return { w, h }
}

/**
 * Keeps the remembered position only while enough of the window would land on a screen that
 * still exists (a monitor may have been unplugged); otherwise only the size is kept, capped to
 * the first screen, and the system centres the window.
 */
export function fitToDisplays(state: WindowState | null, workAreas: readonly Rect[]): Partial<WindowState> {
  if (!state) return { ...DEFAULT_SIZE }
  const visible = workAreas.some((area) => {
    const o = overlap(state, area)
    return o.w >= MIN_VISIBLE && o.h >= MIN_VISIBLE
  })
  if (visible) return state
  const first = workAreas[0]
  return {
    width: first ? Math.min(state.width, first.width) : state.width,
    height: first ? Math.min(state.height, first.height) : state.height,
    maximized: state.maximized,
  }
}
