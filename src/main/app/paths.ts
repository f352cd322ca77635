import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_FOLDER = 'FactLab'
export const DEFAULT_WORKSPACE_NAME = 'workspace.factlab'

export interface PlatformEnv {
  platform: NodeJS.Platform
  env: Record<string, string | undefined>
  home: string
}

const current = (): PlatformEnv => ({ platform: process.platform, env: process.env, home: homedir() })

/**
 * The per-user folder the desktop app also uses (Electron's `userData`), so browser mode and the
 * desktop app open the same default workspace.
 */
export function userDataDir(p: PlatformEnv = current()): string {
  if (p.platform === 'win32') return join(p.env.APPDATA || join(p.home, 'AppData', 'Roaming'), APP_FOLDER)
  if (p.platform === 'darwin') return join(p.home, 'Library', 'Application Support', APP_FOLDER)
  return join(p.env.XDG_CONFIG_HOME || join(p.home, '.config'), APP_FOLDER)
}

export function defaultWorkspacePath(p: PlatformEnv = current()): string {
  return join(userDataDir(p), DEFAULT_WORKSPACE_NAME)
}
