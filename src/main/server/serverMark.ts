import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { z } from 'zod'

/**
 * Browser mode leaves a mark beside the workspace it serves (`<file>.server.json`: process,
 * host, URL origin), so a second server started on the same file can say that another one has
 * it open: the same person labelling in both would overwrite their own labels, last write wins.
 * The mark is advice, not a lock: a mark whose process is gone (a kill, a crash) is taken over.
 */
const Mark = z.object({ pid: z.number().int(), host: z.string(), origin: z.string() })
export type ServerMark = z.infer<typeof Mark>

export function markPath(workspaceFile: string): string {
  return `${workspaceFile}.server.json`
}

function readMark(file: string): ServerMark | null {
  try {
    const parsed = Mark.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** A mark of another live process on this host (a mark from another host cannot be checked). */
function aliveElsewhere(mark: ServerMark): boolean {
  if (mark.pid === process.pid) return false
  if (mark.host !== hostname()) return true
  try {
    process.kill(mark.pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Marks the workspace as served from `origin`, unless another live server has marked it: that
 * one is returned (and its mark kept). `release` removes this process's own mark only.
 */
export function markServing(
  workspaceFile: string,
  origin: string,
): { other: ServerMark | null; release(): void } {
  const file = markPath(workspaceFile)
  const existing = readMark(file)
  if (existing && aliveElsewhere(existing)) return { other: existing, release: () => undefined }
  try {
    writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname(), origin }))
  } catch {
    // A folder that refuses the mark loses only the warning, never the server.
    return { other: null, release: () => undefined }
  }
  return {
    other: null,
    release() {
      if (readMark(file)?.pid === process.pid) rmSync(file, { force: true })
    },
  }
}

/** What the second server says when it starts. */
export function otherServerWarning(other: ServerMark): string {
  return `Warning: another FactLab server (process ${other.pid}${other.host === hostname() ? '' : ` on ${other.host}`}, ${other.origin}) already has this workspace open. Labels one person gives in both overwrite each other; use that server's page, or stop it first.`
}
