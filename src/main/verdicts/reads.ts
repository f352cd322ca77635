import type { JudgeVerdict } from '../../shared/contract/annotate'
import type { Db } from '../store/connection'

/** A judge's (or an imported run's) verdict on one target, with what names the judge. */
export interface TargetJudgeVerdict {
  targetId: number
  runId: number
  status: JudgeVerdict['status']
  verdict: string | null
  reason: string | null
  citation: string | null
  judgeName: string | null
  provider: string
  model: string
  method: string
}

/** Every judge and imported run's verdict on these targets, oldest run first (the annotate view). */
export function judgeVerdictsOfTargets(db: Db, targetIds: readonly number[]): TargetJudgeVerdict[] {
  return db
    .prepare(
      `SELECT v.target_id AS targetId, v.run_id AS runId, v.status, v.verdict, v.reason, v.citation,
         jc.name AS judgeName, r.provider, r.model, r.method
       FROM verdicts v JOIN runs r ON r.id = v.run_id LEFT JOIN judge_configs jc ON jc.id = r.judge_config_id
       WHERE v.target_id IN (SELECT value FROM json_each(?)) AND r.kind IN ('judge', 'imported')
       ORDER BY r.id`,
    )
    .all(JSON.stringify(targetIds)) as TargetJudgeVerdict[]
}
