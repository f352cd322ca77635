import { once } from 'node:events'
import { appendFileSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Workspace } from '../../src/main/app/workspace'
import { importFile } from '../../src/main/import'
import { createDataset } from '../../src/main/store/repos/datasets'
import type { MappingInput } from '../../src/shared/importMapping'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { figure, info, infoRate } from './record'

const VARIANTS = ['answer', 'ungrounded_answer', 'poor_answer'] as const
const WORDS = 'river mill tower prize glider harbour council library bridge orchard valley lantern'.split(' ')

/** A deterministic text of about `bytes` characters, different per seed. */
function text(seed: number, bytes: number): string {
  let out = ''
  let x = seed * 2654435761
  while (out.length < bytes) {
    x = (x * 1103515245 + 12345) >>> 0
    out += `${WORDS[x % WORDS.length]} `
  }
  return out.slice(0, bytes)
}

interface BenchRow {
  id: string
  question: string
  reference: string
  answer: string
  ungrounded_answer: string
  poor_answer: string
  facts: string[]
}

/** Rows repeat a pool of generated texts so the bare insert measures inserts, not text making. */
const POOL = 1000
const pool: BenchRow[] = []

function row(i: number): BenchRow {
  let base = pool[i % POOL]
  if (!base) {
    base = makeRow(i % POOL)
    pool[i % POOL] = base
  }
  return { ...base, id: `item-${i}`, question: `What does item ${i} say?` }
}

function makeRow(i: number): BenchRow {
  return {
    id: `item-${i}`,
    question: `What does item ${i} say?`,
    reference: text(i, 1024),
    answer: text(i + 1, 1024),
    ungrounded_answer: text(i + 2, 1024),
    poor_answer: text(i + 3, 1024),
    facts: Array.from({ length: 6 }, (_, f) => `Fact ${f} of item ${i}: ${text(i * 7 + f, 60)}`),
  }
}

async function writeJsonl(file: string, n: number): Promise<void> {
  const out = createWriteStream(file)
  for (let i = 0; i < n; i++) if (!out.write(`${JSON.stringify(row(i))}\n`)) await once(out, 'drain')
  out.end()
  await once(out, 'finish')
}

const FTS_TRIGGERS = ['items_fts_ai', 'candidates_fts_ai', 'units_fts_ai']

/**
 * The floor: the same rows, generated in memory, through plain prepared inserts in one
 * transaction. `withIndex: false` drops the search index's insert triggers first, so the floor
 * does not hide what the index costs.
 */
function bareInsert(ws: Workspace, n: number, withIndex: boolean): void {
  const db = ws.db
  if (!withIndex) for (const t of FTS_TRIGGERS) db.exec(`DROP TRIGGER ${t}`)
  const ds = createDataset(db, { name: 'bare', labelSchema: FAAF_SCHEMA })
  const at = new Date().toISOString()
  const item = db.prepare(
    'INSERT INTO items (dataset_id, ext_id, position, question, reference, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const cand = db.prepare(
    "INSERT INTO candidates (item_id, variant, text, origin, metadata) VALUES (?, ?, ?, 'import', '{}')",
  )
  const unit = db.prepare(
    "INSERT INTO units (item_id, candidate_id, kind, position, text, origin, version, created_at) VALUES (?, NULL, 'fact', ?, ?, 'import', 1, ?)",
  )
  const lineage = db.prepare('UPDATE units SET lineage_id = id WHERE id = ?')
  const target = db.prepare(
    'INSERT INTO targets (dataset_id, item_id, unit_id, candidate_id) VALUES (?, ?, ?, ?)',
  )
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const r = row(i)
      const itemId = Number(item.run(ds.id, r.id, i, r.question, r.reference, '{}').lastInsertRowid)
      const cands = VARIANTS.map((v) => Number(cand.run(itemId, v, r[v]).lastInsertRowid))
      r.facts.forEach((f, p) => {
        const unitId = Number(unit.run(itemId, p, f, at).lastInsertRowid)
        lineage.run(unitId)
        for (const c of cands) target.run(ds.id, itemId, unitId, c)
      })
    }
  })()
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

const mapping: MappingInput = {
  id: 'id',
  question: 'question',
  reference: 'reference',
  candidates: VARIANTS.map((v) => ({ variant: v, column: v })),
  facts: { column: 'facts', split: 'list' },
}

/** Import of 100k generated items from JSONL vs bare bulk inserts: bar ratio ≥ 0.5, memory bounded. */
export async function benchImport(): Promise<void> {
  const n = Number(process.env.FACTLAB_BENCH_ITEMS ?? 100_000)
  const dir = mkdtempSync(join(tmpdir(), 'factlab-bench-import-'))
  try {
    const file = join(dir, 'items.jsonl')
    await writeJsonl(file, n)

    // The import runs first, so that its memory figure is not the bare inserts' leftover heap.
    const ws = Workspace.open(join(dir, 'import.factlab'))
    const before = process.memoryUsage().rss
    let peak = before
    const t0 = performance.now()
    const report = await importFile(ws, {
      file,
      mapping,
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().rss)
      },
    })
    const importRate = n / ((performance.now() - t0) / 1000)
    ws.close()
    if (report.items !== n) throw new Error(`imported ${report.items} of ${n} items`)

    const bare = (withIndex: boolean) => {
      const bareWs = Workspace.open(join(dir, `bare-${withIndex}.factlab`))
      const t0 = performance.now()
      bareInsert(bareWs, n, withIndex)
      const rate = n / ((performance.now() - t0) / 1000)
      bareWs.close()
      return rate
    }
    const bareIndexed = bare(true)
    const bareUnindexed = bare(false)

    // The bar compares with the floor that keeps no search index: the index is the import's to pay.
    const ratio = importRate / bareUnindexed
    infoRate(`import ${fmt(n / 1000)}k items (search index built)`, importRate, 'items/s')
    infoRate('bare insert without the search index', bareUnindexed, 'items/s')
    infoRate('bare insert with it (per-row triggers)', bareIndexed, 'items/s')
    figure('import rate / bare insert without index', ratio, '', 0.5, 'min')
    infoRate('import rate / bare insert with index', importRate / bareIndexed, '')
    info('RSS before the import', before / 1024 / 1024, 'MB')
    info('RSS peak during the import', peak / 1024 / 1024, 'MB')

    // A bad last row: everything before it is written, then withdrawn chunk by chunk.
    const failing = join(dir, 'failing.jsonl')
    const m = Math.max(1, Math.round(n / 10))
    await writeJsonl(failing, m)
    appendFileSync(failing, '{"id": "cut\n')
    const failWs = Workspace.open(join(dir, 'failing.factlab'))
    const t1 = performance.now()
    const refused = await importFile(failWs, { file: failing, mapping }).then(
      () => false,
      () => true,
    )
    const seconds = (performance.now() - t1) / 1000
    const left = (failWs.db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n
    failWs.close()
    if (!refused || left !== 0) throw new Error('the failing import was not withdrawn whole')
    info(`an import of ${fmt(m)} items failing on its last row: written and withdrawn`, seconds, 's')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const isEntry = process.argv[1] !== undefined && /bench\/import\.ts$/.test(process.argv[1])
if (isEntry) await benchImport()
