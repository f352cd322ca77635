/** Runs only the batch-ingest bench (for profiling: `node --cpu-prof --import tsx test/bench/_ingest.ts`). */
import { benchBatchIngest } from './batches'

await benchBatchIngest()
