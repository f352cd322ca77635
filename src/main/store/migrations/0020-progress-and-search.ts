import type { Migration } from './types'

const CURRENT = (u: string) => `${u}.superseded_by IS NULL AND ${u}.deleted_at IS NULL`

/*
 * No conflict clauses (OR IGNORE, upserts) in trigger bodies: SQLite lets the outer statement's
 * conflict policy override them, and LabelWriter's own upsert would turn an IGNORE into a failure.
 */

/** An open dispute on target t: two differing human verdicts, a current unit, no gold row yet. */
const OPEN_DISPUTE = `NOT EXISTS (SELECT 1 FROM gold g WHERE g.target_id = t.id)
  AND EXISTS (SELECT 1 FROM units u WHERE u.id = t.unit_id AND ${CURRENT('u')})
  AND (SELECT COUNT(DISTINCT l.verdict) FROM labels l WHERE l.target_id = t.id AND l.verdict IS NOT NULL) > 1`

/** Recomputes the open disputes of the targets (alias t) matching `where`. */
const refreshDisputes = (where: string) => `
  DELETE FROM disputed_targets WHERE target_id IN (SELECT t.id FROM targets t WHERE ${where} AND NOT (${OPEN_DISPUTE}));
  INSERT INTO disputed_targets (target_id, dataset_id, item_id)
    SELECT t.id, t.dataset_id, t.item_id FROM targets t WHERE ${where} AND ${OPEN_DISPUTE}
      AND NOT EXISTS (SELECT 1 FROM disputed_targets x WHERE x.target_id = t.id);`

/** The dataset of an item, or NULL once the item is gone (a cascade from its BEFORE DELETE). */
const datasetOf = (itemId: string) => `(SELECT dataset_id FROM items WHERE id = ${itemId})`

/** After candidates left dataset `ds`: drop emptied variants, and find a new first candidate. */
const variantsShrunk = (ds: string, firstGone: string, otherThan: string) => `
  DELETE FROM dataset_variants WHERE dataset_id = ${ds} AND candidates = 0;
  UPDATE dataset_variants SET first_candidate_id = (SELECT MIN(c.id) FROM candidates c JOIN items i ON i.id = c.item_id
      WHERE i.dataset_id = ${ds} AND c.variant = dataset_variants.variant AND ${otherThan})
    WHERE dataset_id = ${ds} AND ${firstGone};`

/** The dataset of label row `l`'s target when it counts: a verdict on a current unit. */
const countedIn = (l: string) => `(SELECT t.dataset_id FROM targets t JOIN units u ON u.id = t.unit_id
  WHERE t.id = ${l}.target_id AND ${l}.verdict IS NOT NULL AND ${CURRENT('u')})`

/**
 * Adds or takes away a label row's share of its dataset's counter. Every annotator with a label
 * in a dataset gets a row (possibly 0), so a unit coming back into use has a row to add to.
 */
const addLabel = (l: string, sign: '+' | '-') =>
  sign === '+'
    ? `INSERT INTO dataset_labelled (dataset_id, annotator_id, labelled)
         SELECT t.dataset_id, ${l}.annotator_id, 0 FROM targets t WHERE t.id = ${l}.target_id
           AND NOT EXISTS (SELECT 1 FROM dataset_labelled d
                           WHERE d.dataset_id = t.dataset_id AND d.annotator_id = ${l}.annotator_id);
       UPDATE dataset_labelled SET labelled = labelled + 1
         WHERE annotator_id = ${l}.annotator_id AND dataset_id = ${countedIn(l)};`
    : `UPDATE dataset_labelled SET labelled = labelled - 1
         WHERE annotator_id = ${l}.annotator_id AND dataset_id = ${countedIn(l)};`

/** Moves a unit's targets and labels in or out of the counts when it stops or starts being current. */
const unitTurns = (sign: '+' | '-') => `
  UPDATE dataset_counts SET units = units ${sign} 1,
    targets = targets ${sign} (SELECT COUNT(*) FROM targets WHERE unit_id = new.id)
    WHERE dataset_id = (SELECT dataset_id FROM items WHERE id = new.item_id);
  UPDATE dataset_labelled SET labelled = labelled ${sign} (SELECT COUNT(*) FROM targets t
      JOIN labels l ON l.target_id = t.id
      WHERE t.unit_id = new.id AND l.annotator_id = dataset_labelled.annotator_id AND l.verdict IS NOT NULL)
    WHERE dataset_id = (SELECT dataset_id FROM items WHERE id = new.item_id)
      AND annotator_id IN (SELECT l.annotator_id FROM targets t JOIN labels l ON l.target_id = t.id
                           WHERE t.unit_id = new.id AND l.verdict IS NOT NULL);
  ${refreshDisputes('t.unit_id = new.id')}`

const ftsTriggers = (table: string, cols: string[]) => {
  const list = cols.join(', ')
  const vals = (row: string) => cols.map((c) => `${row}.${c}`).join(', ')
  const del = `INSERT INTO ${table}_fts (${table}_fts, rowid, ${list}) VALUES ('delete', old.id, ${vals('old')});`
  const ins = `INSERT INTO ${table}_fts (rowid, ${list}) VALUES (new.id, ${vals('new')});`
  return `
CREATE TRIGGER ${table}_fts_ai AFTER INSERT ON ${table} BEGIN ${ins} END;
CREATE TRIGGER ${table}_fts_ad AFTER DELETE ON ${table} BEGIN ${del} END;
CREATE TRIGGER ${table}_fts_au AFTER UPDATE OF ${list} ON ${table} BEGIN ${del} ${ins} END;`
}

/**
 * Progress counts, variants, open disputes and text search that stay cheap at 100k items, kept
 * right by triggers, so every writer (importer, ContentWriter, LabelWriter, unit edits, bundle
 * merge) maintains them without knowing they exist.
 *
 * Hard deletes cascade parent-first: by the time a child's trigger runs its parent row is gone.
 * So a BEFORE DELETE trigger takes its whole subtree off the counts, and a child's own trigger
 * only counts when its parents still exist (it was deleted on its own). Labels need no delete
 * handling there: they hold their targets in place (no cascade), so a labelled target cannot go.
 */
export const migration0020: Migration = {
  version: 20,
  name: 'progress-and-search',
  up: `
CREATE TABLE dataset_counts (
  dataset_id INTEGER PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
  items INTEGER NOT NULL DEFAULT 0,
  candidates INTEGER NOT NULL DEFAULT 0,
  units INTEGER NOT NULL DEFAULT 0,
  targets INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Targets with a verdict from each annotator, on current units only.
CREATE TABLE dataset_labelled (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  labelled INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (dataset_id, annotator_id)
) STRICT, WITHOUT ROWID;

-- Candidate variants of a dataset, in order of first appearance.
CREATE TABLE dataset_variants (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  variant TEXT NOT NULL,
  first_candidate_id INTEGER NOT NULL,
  candidates INTEGER NOT NULL,
  PRIMARY KEY (dataset_id, variant)
) STRICT, WITHOUT ROWID;

-- Open disputes: targets of current units with differing human verdicts and no gold row.
CREATE TABLE disputed_targets (
  target_id INTEGER PRIMARY KEY REFERENCES targets(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL,
  item_id INTEGER NOT NULL
) STRICT;
CREATE INDEX disputed_by_item ON disputed_targets (dataset_id, item_id);

CREATE TRIGGER counts_dataset_ai AFTER INSERT ON datasets
  BEGIN INSERT INTO dataset_counts (dataset_id) VALUES (new.id); END;

CREATE TRIGGER counts_item_ai AFTER INSERT ON items
  BEGIN UPDATE dataset_counts SET items = items + 1 WHERE dataset_id = new.dataset_id; END;
CREATE TRIGGER counts_item_bd BEFORE DELETE ON items BEGIN
  UPDATE dataset_counts SET items = items - 1,
    candidates = candidates - (SELECT COUNT(*) FROM candidates WHERE item_id = old.id),
    units = units - (SELECT COUNT(*) FROM units u WHERE u.item_id = old.id AND ${CURRENT('u')}),
    targets = targets - (SELECT COUNT(*) FROM targets t JOIN units u ON u.id = t.unit_id
      WHERE t.dataset_id = old.dataset_id AND t.item_id = old.id AND ${CURRENT('u')})
    WHERE dataset_id = old.dataset_id;
  UPDATE dataset_variants SET candidates = candidates
    - (SELECT COUNT(*) FROM candidates c WHERE c.item_id = old.id AND c.variant = dataset_variants.variant)
    WHERE dataset_id = old.dataset_id;
  ${variantsShrunk('old.dataset_id', 'first_candidate_id IN (SELECT id FROM candidates WHERE item_id = old.id)', 'c.item_id <> old.id')}
END;

CREATE TRIGGER counts_candidate_ai AFTER INSERT ON candidates BEGIN
  UPDATE dataset_counts SET candidates = candidates + 1 WHERE dataset_id = ${datasetOf('new.item_id')};
  INSERT INTO dataset_variants (dataset_id, variant, first_candidate_id, candidates)
    SELECT i.dataset_id, new.variant, new.id, 0 FROM items i WHERE i.id = new.item_id
      AND NOT EXISTS (SELECT 1 FROM dataset_variants v WHERE v.dataset_id = i.dataset_id AND v.variant = new.variant);
  UPDATE dataset_variants SET candidates = candidates + 1, first_candidate_id = MIN(first_candidate_id, new.id)
    WHERE dataset_id = ${datasetOf('new.item_id')} AND variant = new.variant;
END;
CREATE TRIGGER counts_candidate_bd BEFORE DELETE ON candidates BEGIN
  UPDATE dataset_counts SET candidates = candidates - 1,
    units = units - (SELECT COUNT(*) FROM units u WHERE u.candidate_id = old.id AND ${CURRENT('u')}),
    targets = targets - (SELECT COUNT(*) FROM targets t JOIN units u ON u.id = t.unit_id
      WHERE t.candidate_id = old.id AND ${CURRENT('u')})
    WHERE dataset_id = ${datasetOf('old.item_id')};
  UPDATE dataset_variants SET candidates = candidates - 1
    WHERE dataset_id = ${datasetOf('old.item_id')} AND variant = old.variant;
  ${variantsShrunk(datasetOf('old.item_id'), 'variant = old.variant AND first_candidate_id = old.id', 'c.id <> old.id')}
END;

CREATE TRIGGER counts_unit_ai AFTER INSERT ON units WHEN ${CURRENT('new')} BEGIN
  UPDATE dataset_counts SET units = units + 1
    WHERE dataset_id = (SELECT dataset_id FROM items WHERE id = new.item_id);
END;
CREATE TRIGGER counts_unit_bd BEFORE DELETE ON units WHEN ${CURRENT('old')} BEGIN
  UPDATE dataset_counts SET units = units - 1,
    targets = targets - (SELECT COUNT(*) FROM targets WHERE unit_id = old.id)
    WHERE dataset_id = (SELECT dataset_id FROM items WHERE id = old.item_id)
      AND (old.candidate_id IS NULL OR EXISTS (SELECT 1 FROM candidates WHERE id = old.candidate_id));
END;
CREATE TRIGGER counts_unit_retired AFTER UPDATE OF superseded_by, deleted_at ON units
  WHEN ${CURRENT('old')} AND NOT (${CURRENT('new')}) BEGIN ${unitTurns('-')} END;
CREATE TRIGGER counts_unit_restored AFTER UPDATE OF superseded_by, deleted_at ON units
  WHEN ${CURRENT('new')} AND NOT (${CURRENT('old')}) BEGIN ${unitTurns('+')} END;

CREATE TRIGGER counts_target_ai AFTER INSERT ON targets
  WHEN EXISTS (SELECT 1 FROM units u WHERE u.id = new.unit_id AND ${CURRENT('u')}) BEGIN
  UPDATE dataset_counts SET targets = targets + 1 WHERE dataset_id = new.dataset_id;
END;
CREATE TRIGGER counts_target_bd BEFORE DELETE ON targets
  WHEN EXISTS (SELECT 1 FROM units u WHERE u.id = old.unit_id AND ${CURRENT('u')})
    AND EXISTS (SELECT 1 FROM candidates WHERE id = old.candidate_id)
    AND EXISTS (SELECT 1 FROM items WHERE id = old.item_id) BEGIN
  UPDATE dataset_counts SET targets = targets - 1 WHERE dataset_id = old.dataset_id;
END;

CREATE TRIGGER counts_label_ai AFTER INSERT ON labels BEGIN
  ${addLabel('new', '+')}
  ${refreshDisputes('t.id = new.target_id')}
END;
CREATE TRIGGER counts_label_au AFTER UPDATE OF verdict, target_id, annotator_id ON labels BEGIN
  ${addLabel('old', '-')}
  ${addLabel('new', '+')}
  ${refreshDisputes('t.id IN (old.target_id, new.target_id)')}
END;
CREATE TRIGGER counts_label_ad AFTER DELETE ON labels BEGIN
  ${addLabel('old', '-')}
  ${refreshDisputes('t.id = old.target_id')}
END;
CREATE TRIGGER disputes_gold_ai AFTER INSERT ON gold BEGIN ${refreshDisputes('t.id = new.target_id')} END;
CREATE TRIGGER disputes_gold_ad AFTER DELETE ON gold BEGIN ${refreshDisputes('t.id = old.target_id')} END;
CREATE TRIGGER disputes_gold_au AFTER UPDATE OF target_id ON gold
  BEGIN ${refreshDisputes('t.id IN (old.target_id, new.target_id)')} END;

-- detail = none: searches are words and word starts joined by AND, which need no positions;
-- without them the index is smaller and cheaper to keep up during imports.
CREATE VIRTUAL TABLE items_fts USING fts5(ext_id, question, reference,
  content = 'items', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', detail = none);
CREATE VIRTUAL TABLE candidates_fts USING fts5(text,
  content = 'candidates', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', detail = none);
CREATE VIRTUAL TABLE units_fts USING fts5(text,
  content = 'units', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', detail = none);
${ftsTriggers('items', ['ext_id', 'question', 'reference'])}
${ftsTriggers('candidates', ['text'])}
${ftsTriggers('units', ['text'])}

-- Fill everything from what the workspace already holds.
INSERT INTO items_fts (items_fts) VALUES ('rebuild');
INSERT INTO candidates_fts (candidates_fts) VALUES ('rebuild');
INSERT INTO units_fts (units_fts) VALUES ('rebuild');
INSERT INTO dataset_counts (dataset_id, items, candidates, units, targets)
  SELECT d.id,
    (SELECT COUNT(*) FROM items i WHERE i.dataset_id = d.id),
    (SELECT COUNT(*) FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = d.id),
    (SELECT COUNT(*) FROM units u JOIN items i ON i.id = u.item_id WHERE i.dataset_id = d.id AND ${CURRENT('u')}),
    (SELECT COUNT(*) FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.dataset_id = d.id AND ${CURRENT('u')})
  FROM datasets d;
INSERT INTO dataset_labelled (dataset_id, annotator_id, labelled)
  SELECT t.dataset_id, l.annotator_id, SUM(l.verdict IS NOT NULL AND ${CURRENT('u')})
  FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
  GROUP BY t.dataset_id, l.annotator_id;
INSERT INTO dataset_variants (dataset_id, variant, first_candidate_id, candidates)
  SELECT i.dataset_id, c.variant, MIN(c.id), COUNT(*) FROM candidates c JOIN items i ON i.id = c.item_id
  GROUP BY i.dataset_id, c.variant;
INSERT INTO disputed_targets (target_id, dataset_id, item_id)
  SELECT t.id, t.dataset_id, t.item_id FROM targets t
  WHERE t.id IN (SELECT target_id FROM labels WHERE verdict IS NOT NULL) AND ${OPEN_DISPUTE};
`,
}
