import type { Migration } from './types'

/**
 * The label blocks' seconds and times move to a table of their own, `label_block_extras` (one
 * row per block: its stamp and the seconds f64, then the times f64 when the block has them), so
 * a view that needs neither (the Agreement view) reads 10 bytes a label instead of 26: at a
 * million targets 17 MB of blocks instead of 45 (src/main/labels/blockExtras.ts).
 *
 * Each block's dict gets a `stamp`, and its extras row the same one: extras serve only the block
 * they were built with. No trigger watches the new table; a block rebuilt after a label save
 * replaces its extras row, and a stale row (its block dropped, not rebuilt yet) has the old stamp.
 * The blocks stored already are split in place (their old layout: seconds, times, annotators,
 * verdicts, places), so no view has to rebuild them.
 *
 * A target block of one dataset (all of them but where two datasets' ids meet) no longer holds
 * each target's dataset: 11 bytes a target instead of 15 (src/main/metrics/targetBlocks.ts). A
 * block naming two or more datasets (`,1,2,`) keeps the column.
 */
const EXTRA_BYTES = `json_extract(dict, '$.n') * CASE WHEN json_extract(dict, '$.times') THEN 16 ELSE 8 END`

export const migration0520: Migration = {
  version: 520,
  name: 'narrower-view-blocks',
  // Re-runnable (a workspace set back a version runs it again): the target blocks are cut only
  // before the extras table exists, and a label block only while its dict has no stamp.
  up: `
UPDATE target_blocks SET data = substr(data, 4 * (length(data) / 15) + 1)
  WHERE datasets NOT LIKE ',%,%,'
    AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'label_block_extras');
CREATE TABLE IF NOT EXISTS label_block_extras (
  block INTEGER PRIMARY KEY,
  stamp INTEGER NOT NULL,
  data BLOB NOT NULL
);
INSERT OR REPLACE INTO label_block_extras (block, stamp, data)
  SELECT block, abs(random() % 281474976710656), substr(data, 1, ${EXTRA_BYTES}) FROM label_blocks
  WHERE json_extract(dict, '$.stamp') IS NULL;
UPDATE label_blocks
  SET dict = json_set(dict, '$.stamp', (SELECT e.stamp FROM label_block_extras e WHERE e.block = label_blocks.block)),
      data = substr(data, ${EXTRA_BYTES} + 1)
  WHERE json_extract(dict, '$.stamp') IS NULL;
`,
}
