import type { Migration } from './types'

/**
 * Two caches the Agreement and Compare views read instead of millions of rows.
 *
 * `label_blocks`: the labels carrying a verdict, a second time, in blocks of 4,096 target ids
 * (block = target_id / 4096): per block one row whose `data` holds each such label's target,
 * annotator, verdict, seconds and time as packed columns and whose `dict` (JSON) names the
 * block's verdicts. The Agreement and Compare views read a dataset's labels as a few hundred
 * rows instead of millions (src/main/labels/blocks.ts). It is a cache of `labels` and nothing
 * else: any insert, update or delete of a label deletes its block, and the next read builds it
 * again from the rows. A save costs one delete by primary key; a block is rebuilt from at most
 * 4,096 targets' labels. An empty table is a valid state (every block is built on first read).
 *
 * `target_blocks`: every target, a second time, in the same blocks of target ids: its dataset,
 * item, candidate and whether its unit is current and it is a control (src/main/metrics/
 * targetBlocks.ts); `datasets` lists the block's datasets as `,1,2,`. Triggers on targets, on a
 * unit's `superseded_by` / `deleted_at` and on controls delete the blocks they touch. A label
 * save (which moves `targets.labels_n`) touches none of them.
 */
export const migration0160: Migration = {
  version: 160,
  name: 'label-blocks',
  up: `
CREATE TABLE label_blocks (
  block INTEGER PRIMARY KEY,
  dict TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE TRIGGER label_blocks_ai AFTER INSERT ON labels WHEN new.verdict IS NOT NULL BEGIN
  DELETE FROM label_blocks WHERE block = new.target_id / 4096;
END;
CREATE TRIGGER label_blocks_au AFTER UPDATE OF target_id, annotator_id, verdict, seconds, updated_at ON labels
  WHEN old.verdict IS NOT NULL OR new.verdict IS NOT NULL BEGIN
  DELETE FROM label_blocks WHERE block = old.target_id / 4096;
  DELETE FROM label_blocks WHERE block = new.target_id / 4096;
END;
CREATE TRIGGER label_blocks_ad AFTER DELETE ON labels WHEN old.verdict IS NOT NULL BEGIN
  DELETE FROM label_blocks WHERE block = old.target_id / 4096;
END;

CREATE TABLE target_blocks (
  block INTEGER PRIMARY KEY,
  datasets TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE TRIGGER target_blocks_ai AFTER INSERT ON targets BEGIN
  DELETE FROM target_blocks WHERE block = new.id / 4096;
END;
CREATE TRIGGER target_blocks_au AFTER UPDATE OF id, dataset_id, item_id, unit_id, candidate_id ON targets BEGIN
  DELETE FROM target_blocks WHERE block = old.id / 4096;
  DELETE FROM target_blocks WHERE block = new.id / 4096;
END;
CREATE TRIGGER target_blocks_ad AFTER DELETE ON targets BEGIN
  DELETE FROM target_blocks WHERE block = old.id / 4096;
END;
CREATE TRIGGER target_blocks_units_au AFTER UPDATE OF superseded_by, deleted_at ON units BEGIN
  DELETE FROM target_blocks WHERE block IN (SELECT id / 4096 FROM targets WHERE unit_id = new.id);
END;
CREATE TRIGGER target_blocks_controls_ai AFTER INSERT ON controls BEGIN
  DELETE FROM target_blocks WHERE block = new.target_id / 4096;
END;
CREATE TRIGGER target_blocks_controls_au AFTER UPDATE OF target_id ON controls BEGIN
  DELETE FROM target_blocks WHERE block = old.target_id / 4096;
  DELETE FROM target_blocks WHERE block = new.target_id / 4096;
END;
CREATE TRIGGER target_blocks_controls_ad AFTER DELETE ON controls BEGIN
  DELETE FROM target_blocks WHERE block = old.target_id / 4096;
END;
`,
}
