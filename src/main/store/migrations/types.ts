export interface Migration {
  /** Stored in PRAGMA user_version once applied; numbered in steps of ten. */
  version: number
  name: string
  up: string
}
