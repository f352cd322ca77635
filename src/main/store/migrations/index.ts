import { migration0010 } from './0010-initial'
import { migration0020 } from './0020-progress-and-search'
import { migration0030 } from './0030-gold-history'
import { migration0040 } from './0040-run-lease'
import { migration0050 } from './0050-import-state'
import { migration0070 } from './0070-label-history-merge'
import { migration0080 } from './0080-annotation-project'
import { migration0090 } from './0090-batches-and-prompt-cache'
import { migration0100 } from './0100-performance'
import { migration0110 } from './0110-blind-adjudication'
import { migration0120 } from './0120-gold-rules'
import { migration0130 } from './0130-batch-call-records'
import { migration0140 } from './0140-label-reads'
import { migration0150 } from './0150-batch-replies'
import { migration0160 } from './0160-label-blocks'
import { migration0180 } from './0180-candidate-done'
import { migration0210 } from './0210-item-unit-words'
import { migration0230 } from './0230-new-target-done'
import { migration0240 } from './0240-merge-origins'
import { migration0250 } from './0250-refchecker-source'
import { migration0260 } from './0260-people-towards-k'
import { migration0280 } from './0280-batch-call-hashes'
import { migration0290 } from './0290-summeval-crowd'
import { migration0390 } from './0390-labels-by-creation'
import { migration0400 } from './0400-na-scope-of-earlier-runs'
import { migration0420 } from './0420-label-save-ids'
import { migration0450 } from './0450-guidelines-version-unknown'
import { migration0470 } from './0470-import-totals-and-save-ages'
import { migration0520 } from './0520-narrower-view-blocks'
import { migration0610 } from './0610-labels-by-rank'
import type { Migration } from './types'

export const MIGRATIONS: readonly Migration[] = [
  migration0010,
  migration0020,
  migration0030,
  migration0040,
  migration0050,
  migration0070,
  migration0080,
  migration0090,
  migration0100,
  migration0110,
  migration0120,
  migration0130,
  migration0140,
  migration0150,
  migration0160,
  migration0180,
  migration0210,
  migration0230,
  migration0240,
  migration0250,
  migration0260,
  migration0280,
  migration0290,
  migration0390,
  migration0400,
  migration0420,
  migration0450,
  migration0470,
  migration0520,
  migration0610,
]
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0
export type { Migration }
