/**
 * Passing trouble of the workspace's store: the file is busy (another program holds the write
 * lock), the disk is full, or the disk failed a read or write. Nothing was refused: the same
 * call can go through later. Main words its error with `what`; the labelling screen reads the
 * kind back from that wording to say how long it will keep the label.
 */
export type StoreTrouble = 'busy' | 'full' | 'io' | 'readonly'

export const STORE_TROUBLE: Record<StoreTrouble, { what: string; until: string }> = {
  busy: {
    what: 'the workspace is busy (another program, such as an import or a judge run, is writing to it)',
    until: 'as soon as it is free',
  },
  full: { what: 'the disk is full', until: 'when there is room' },
  readonly: {
    what: 'the workspace file cannot be written (it or its folder became read-only)',
    until: 'once it can be written again',
  },
  io: {
    what: 'the workspace file could not be written (the disk or its file system reported an error)',
    until: 'when the disk answers again',
  },
}

/** The message of a call that met store trouble: plain for the CLI and for scripts. */
export function storeTroubleMessage(kind: StoreTrouble): string {
  const { what, until } = STORE_TROUBLE[kind]
  return `${what[0]!.toUpperCase()}${what.slice(1)}: nothing was changed. Try again ${until}.`
}

/** Which trouble a message of `storeTroubleMessage` names; null for any other message. */
export function troubleOf(message: string): StoreTrouble | null {
  const lower = message.toLowerCase()
  for (const kind of Object.keys(STORE_TROUBLE) as StoreTrouble[])
    if (lower.startsWith(STORE_TROUBLE[kind].what)) return kind
  return null
}
