import type { Db } from '../store/connection'
import type { MergeMark } from './labels'

export interface LocalHistory {
  verdict: string | null
  evidence: string
  note: string | null
  at: string
}

export interface LocalLabel {
  verdict: string | null
  evidence: string
  note: string | null
  seconds: number
  updated_at: string
  guidelines_version: number | null
}

/**
 * What a bundle merge reads and adds on one target's labels here: the current label and its
 * history, and history rows for states the bundle brings, each with the action it was given
 * with and the merge recorded beside it (migration 0070). The current label itself is replaced
 * through the LabelWriter, like any other save.
 */
export class MergeTargetLabels {
  private readonly local
  private readonly localHistory
  private readonly append

  constructor(db: Db) {
    this.local = db.prepare(
      'SELECT verdict, evidence, note, seconds, updated_at, guidelines_version FROM labels WHERE target_id = ? AND annotator_id = ?',
    )
    this.localHistory = db.prepare(
      'SELECT verdict, evidence, note, at FROM label_history WHERE target_id = ? AND annotator_id = ?',
    )
    // guidelines_version 0 is "not known" (migration 0450's trigger makes it NULL); a NULL here
    // would be stamped with this workspace's latest version, one the annotator never saw.
    this.append = db.prepare(
      `INSERT INTO label_history (target_id, annotator_id, verdict, evidence, note, seconds, action, at,
         merged_at, merged_from, guidelines_version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
  }

  current(targetId: number, annotatorId: number): LocalLabel | undefined {
    return this.local.get(targetId, annotatorId) as LocalLabel | undefined
  }

  history(targetId: number, annotatorId: number): LocalHistory[] {
    return this.localHistory.all(targetId, annotatorId) as LocalHistory[]
  }

  appendHistory(
    targetId: number,
    annotatorId: number,
    verdict: string | null,
    evidence: string,
    note: string | null,
    seconds: number,
    at: string,
    action: string,
    merge: MergeMark,
    /** The version the state was given under where it was made; null: not known. */
    guidelinesVersion: number | null,
  ): void {
    this.append.run(
      targetId,
      annotatorId,
      verdict,
      evidence,
      note,
      seconds,
      action,
      at,
      merge.at,
      merge.from,
      guidelinesVersion ?? 0,
    )
  }
}
