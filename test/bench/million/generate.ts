/**
 * The million-target workspace of the bench: 100k items × 10 facts against one candidate each
 * (1M targets), labels from 5 annotators (two per target on 90% of them, 3% disagreeing), and
 * 20 imported judge runs. Made with bulk SQL statements (no per-row JavaScript), and kept under
 * the temp dir keyed by GENERATOR_VERSION and the sizes, so later bench runs reuse it.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readLabelBlocks } from '../../../src/main/labels/blocks'
import { readTargetBlocks } from '../../../src/main/metrics/targetBlocks'
import { openWorkspace } from '../../../src/main/store/connection'
import { ensureAnnotator } from '../../../src/main/store/repos/annotators'
import { createDataset } from '../../../src/main/store/repos/datasets'
import { verdictColumns } from '../../../src/main/verdicts/stored'
import { FAAF_SCHEMA } from '../../../src/shared/labelSchemas'

/**
 * Bump when the generated content changes, so a cached file from an older generator is not reused.
 * 7: made with migration 0140's label index, which a copy of a version 6 file would build at open.
 * 8: label times as the app writes them (ISO with milliseconds), and migration 0160's label
 * blocks stored, as after a first look at the figures. 9: its target blocks stored too.
 * 18: made with migration 0180's finished candidates, which a copy of a version 9 file would
 * fill at open (about 7 s), inside the "open to the first screen" figure (numbered after the
 * migration, so another branch's version 10 is not taken for this one).
 */
export const GENERATOR_VERSION = 18

export interface MillionSpec {
  items: number
  unitsPerItem: number
  annotators: number
  runs: number
  /** Items whose targets the judge runs cover (all runs cover the same ones). */
  runItems: number
}

export const MILLION: MillionSpec = {
  items: Number(process.env.FACTLAB_BENCH_MILLION_ITEMS ?? 100_000),
  unitsPerItem: 10,
  annotators: 5,
  runs: 20,
  runItems: Number(process.env.FACTLAB_BENCH_MILLION_RUN_ITEMS ?? 10_000),
}

export const ANNOTATORS = (n: number) => Array.from({ length: n }, (_, a) => `annotator-${a + 1}`)

/** Words of the generated texts; "river" is in about half of the items, "orchard" in about 1 in 64. */
const WORDS = (
  'river mill tower prize glider harbour council library bridge orchard valley lantern meadow ' +
  'quarry beacon cellar ferry garden hollow island jetty kettle ledger market needle office ' +
  'parish quay ridge saddle tannery upland vessel warden yard zenith anchor basin canal ' +
  'dune estate forge grove hamlet inlet junction keep lagoon manor north outpost pier ' +
  'rampart spire thicket umber vault weir abbey brook citadel delta fjord gorge'
).split(' ')

export interface Million {
  file: string
  datasetId: number
  spec: MillionSpec
  reused: boolean
  seconds: number
}

/** The cached workspace file, generated first when missing. `fresh` gives a private copy to write to. */
export function millionWorkspace(spec: MillionSpec = MILLION): Million {
  const dir = join(tmpdir(), 'factlab-bench-cache')
  const key = `v${GENERATOR_VERSION}-${spec.items}x${spec.unitsPerItem}-a${spec.annotators}-r${spec.runs}x${spec.runItems}`
  const file = join(dir, `million-${key}.factlab`)
  if (existsSync(file)) return { file, datasetId: 1, spec, reused: true, seconds: 0 }
  mkdirSync(dir, { recursive: true })
  const partial = `${file}.partial`
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true })
  const t0 = performance.now()
  const datasetId = generate(partial, spec)
  renameSync(partial, file)
  return { file, datasetId, spec, reused: false, seconds: (performance.now() - t0) / 1000 }
}

/**
 * A copy of the cached file that a bench step may change (labels saved, columns stored), on disk
 * before it returns: otherwise the kernel writes its 750 MB back while the next step is timed,
 * which is the bench's cost, not the app's.
 */
export function copyOf(m: Million, to: string): string {
  copyFileSync(m.file, to)
  const fd = openSync(to, 'r+')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  return to
}

function generate(file: string, spec: MillionSpec): number {
  const db = openWorkspace(file, { skipQuickCheck: true })
  try {
    // Nothing else reads this file until it is renamed into place.
    db.pragma('synchronous = OFF')
    db.pragma('journal_mode = OFF')
    const ds = createDataset(db, { name: 'million', labelSchema: FAAF_SCHEMA })
    const annotators = ANNOTATORS(spec.annotators).map((n) => ensureAnnotator(db, n).id)
    db.exec('CREATE TEMP TABLE w (wid INTEGER PRIMARY KEY, word TEXT NOT NULL)')
    const insWord = db.prepare('INSERT INTO temp.w (wid, word) VALUES (?, ?)')
    for (const [k, word] of WORDS.entries()) insWord.run(k, word)
    const n = WORDS.length
    const word = (expr: string) => `(SELECT word FROM temp.w WHERE wid = (${expr}) % ${n})`
    // A sentence of eight words picked by a multiplicative hash of the row number.
    const sentence = (seed: string) =>
      Array.from({ length: 8 }, (_, j) => word(`(${seed}) * ${2654435761 + j * 40503} >> 7`)).join(
        " || ' ' || ",
      )
    db.transaction(() => {
      // The search-index triggers skip an importing dataset; the index is filled in bulk below.
      db.prepare("UPDATE datasets SET state = 'importing' WHERE id = ?").run(ds.id)
      db.exec(`
        WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${spec.items - 1})
        INSERT INTO items (dataset_id, ext_id, position, question, reference, metadata)
          SELECT ${ds.id}, 'item-' || i, i,
            'What does record ' || i || ' say about the ' || ${word('i * 7')} || (CASE WHEN i % 2 = 0 THEN ' by the river' ELSE '' END) || '?',
            ${sentence('i')} || '. ' || ${sentence('i + 1')} || '. ' || ${sentence('i + 2')} || '.', '{}'
          FROM s;
        INSERT INTO candidates (item_id, variant, text, origin, metadata)
          SELECT id, CASE position % 3 WHEN 0 THEN 'answer' WHEN 1 THEN 'ungrounded_answer' ELSE 'poor_answer' END,
            ${sentence('position + 11')} || '. ' || ${sentence('position + 12')} || '.', 'import', '{}'
          FROM items WHERE dataset_id = ${ds.id};
        WITH RECURSIVE f(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM f WHERE k < ${spec.unitsPerItem - 1})
        INSERT INTO units (item_id, kind, position, text, origin, version, created_at)
          SELECT id, 'fact', k, 'Fact ' || k || ' of record ' || position || ': the ' || ${word('position * 13 + k')}
            || ' near the ' || ${word('position * 17 + k * 3')} || '.', 'import', 1, '2026-01-01'
          FROM items, f WHERE dataset_id = ${ds.id} ORDER BY items.id, k;
        UPDATE units SET lineage_id = id WHERE lineage_id IS NULL;
        INSERT INTO targets (dataset_id, item_id, unit_id, candidate_id)
          SELECT ${ds.id}, u.item_id, u.id, c.id FROM units u JOIN candidates c ON c.item_id = u.item_id
          ORDER BY u.id;
        INSERT INTO items_fts (rowid, ext_id, question, reference)
          SELECT id, ext_id, question, reference FROM items WHERE dataset_id = ${ds.id};
        INSERT INTO candidates_fts (rowid, text) SELECT id, text FROM candidates;
        INSERT INTO units_fts (rowid, text) SELECT id, text FROM units;
      `)
      db.prepare("UPDATE datasets SET state = 'ready' WHERE id = ?").run(ds.id)
    })()
    // Labels: annotators a and a + 1 (mod 5) on each target, 10% of targets left unlabelled,
    // about 3% of the second labels disagreeing.
    const a = annotators
    const pick = (offset: number) =>
      `CASE (t.id + ${offset}) % ${a.length} ${a.map((id, k) => `WHEN ${k} THEN ${id}`).join(' ')} END`
    const truth = `CASE WHEN (t.id * 2654435761 >> 5) % 3 = 0 THEN 'false' ELSE 'true' END`
    const flipped = `CASE WHEN (t.id * 40503 >> 3) % 33 = 0 THEN (CASE ${truth} WHEN 'true' THEN 'false' ELSE 'true' END) ELSE ${truth} END`
    // Label times spread over a week, in the form the app writes them.
    const at = (offset: number) =>
      `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-02', '+' || ((t.id * 7919 + ${offset} * 613) % 604800) || ' seconds')`
    db.transaction(() => {
      for (const [offset, verdict] of [
        [0, truth],
        [1, flipped],
      ] as const)
        db.exec(`
          INSERT INTO labels (target_id, annotator_id, verdict, created_at, updated_at, seconds)
            SELECT t.id, ${pick(offset)}, ${verdict}, ${at(offset)}, ${at(offset)}, 4
            FROM targets t WHERE t.dataset_id = ${ds.id} AND (t.id * 7919) % 10 <> 0`)
    })()
    // Judge runs: each wrong on 4–12% of the targets, some N/A and transport errors.
    const insRun = db.prepare(
      `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at, started_at, finished_at)
       VALUES ('imported', ?, 'imported', ?, 'faaf-tf', 'done', '2026-01-03', '2026-01-03', '2026-01-03')`,
    )
    const lastItem = db
      .prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY position LIMIT 1 OFFSET ?')
      .pluck()
      .get(ds.id, Math.min(spec.items, spec.runItems) - 1) as number
    for (let r = 0; r < spec.runs; r++) {
      db.transaction(() => {
        const run = Number(insRun.run(ds.id, `model-${r + 1}`).lastInsertRowid)
        db.exec(`
          INSERT INTO verdicts (run_id, target_id, status, verdict)
            SELECT ${run}, t.id,
              CASE WHEN (t.id + ${r}) % 97 = 0 THEN 'na' WHEN (t.id + ${r}) % 211 = 0 THEN 'error' ELSE 'ok' END,
              CASE WHEN (t.id + ${r}) % 97 = 0 OR (t.id + ${r}) % 211 = 0 THEN NULL
                   WHEN (t.id * ${7919 + r * 104729} >> 4) % 100 < ${4 + (r % 9)} THEN (CASE ${truth} WHEN 'true' THEN 'false' ELSE 'true' END)
                   ELSE ${truth} END
            FROM targets t WHERE t.dataset_id = ${ds.id} AND t.item_id <= ${lastItem}`)
      })()
    }
    // The runs' verdict columns (migration 0100), as after the first look at their figures: the
    // views' "cold" figures are a fresh process on a workspace whose runs were seen before (the
    // metrics part times the first look itself).
    verdictColumns(db, db.prepare('SELECT id FROM runs ORDER BY id').pluck().all() as number[])
    // Likewise the label and target blocks (migration 0160) a first look at the Agreement view stores.
    const span = db
      .prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM targets WHERE dataset_id = ?')
      .get(ds.id) as {
      lo: number
      hi: number
    }
    readLabelBlocks(db, span.lo, span.hi)
    readTargetBlocks(db, ds.id)
    db.exec('ANALYZE')
    db.pragma('journal_mode = WAL')
    return ds.id
  } finally {
    db.close()
  }
}
