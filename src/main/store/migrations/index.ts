import { migration0010 } from './0010-initial'
import type { Migration } from './types'

export const MIGRATIONS: readonly Migration[] = [migration0010]
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0
export type { Migration }
