import type { VerdictOutcome } from '../judges/types'
import type { Db } from '../store/connection'
import { writeVerdictsMany } from '../verdicts/write'
import type { TickWrites } from './tickWrites'

type Entry = { outcomes: readonly VerdictOutcome[]; callId: number | null }

/**
 * A run's verdicts, the candidates finished in one turn of the event loop written by one bulk
 * statement inside that turn's shared commit (see tickWrites.ts). Row by row, each verdict fired
 * the insert triggers that keep the run's verdict column and the "judges disagree" table up to
 * date, which cost more than the insert; the bulk writer brings both up to date once for all the
 * targets it wrote, to the same rows (verdicts/write.ts, shared with batch runs).
 */
export class VerdictWrites {
  private open: Entry[] | null = null
  private commit: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Db,
    private readonly runId: number,
    private readonly writes: TickWrites,
  ) {}

  /** Resolves once the outcomes have committed. */
  write(outcomes: readonly VerdictOutcome[], callId: number | null): Promise<void> {
    if (this.open === null) {
      const entries: Entry[] = []
      this.open = entries
      // Written when the shared commit runs (and again, alone, if that commit had to be retried
      // write by write); later verdicts go to the next commit.
      this.commit = this.writes.write(() => {
        if (this.open === entries) this.open = null
        writeVerdictsMany(this.db, this.runId, entries)
      })
    }
    this.open.push({ outcomes, callId })
    return this.commit
  }
}
