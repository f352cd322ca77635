import { extname } from 'node:path'
import type { Workspace } from '../app/workspace'
import { oneSnapshot } from '../store/statements'
import { verdictExportRows } from '../verdicts/reads'
import { writeRunResponses } from './responsesExport'
import { csvRecord, writeFileAtomically } from './sink'

const BASE = [
  'item_id',
  'variant',
  'unit',
  'unit_kind',
  'unit_text',
  'status',
  'verdict',
  'score',
  'reason',
  'citation',
  'call_key',
  'request_hash',
  'call_status',
  'call_cached',
  'attempts',
  'latency_ms',
  'prompt_tokens',
  'completion_tokens',
] as const
const RAW = ['request', 'response'] as const

// Requests are stored without credentials; this is a second line of defence so that an export
// can never carry one even if a provider adapter someday records its headers.
const SECRET_KEY = /^(authorization|api[-_]?key|x-api-key|headers)$/i

function scrub(text: string | null): unknown {
  if (text === null) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text
  }
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .filter(([k]) => !SECRET_KEY.test(k))
          .map(([k, x]) => [k, walk(x)]),
      )
    return v
  }
  return walk(value)
}

/** Latency to a tenth of a millisecond: the timer's float noise (189.9768280000003) says nothing. */
const tenth = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10)

/**
 * A run's verdicts, one row per target: JSON lines, or CSV when `out` ends in .csv. One call
 * can answer several rows (a FaaF call judges every fact of a candidate): `call_key` names it,
 * and its call columns (status, attempts, latency) repeat on each of its rows, while its
 * tokens are counted on its first row only (null on the others), so a column's sum is the
 * tokens of the calls behind the verdicts rather than each call once per fact. With `raw`,
 * each row also carries the provider request and reply of its call.
 */
export async function exportVerdicts(
  ws: Workspace,
  opts: VerdictsExport,
): Promise<{ file: string; rows: number; responsesFile?: string }> {
  return oneSnapshot(ws.db, () => verdictsFile(ws, opts))
}

interface VerdictsExport {
  runId: number
  out: string
  raw?: boolean
}

function verdictsFile(
  ws: Workspace,
  opts: VerdictsExport,
): { file: string; rows: number; responsesFile?: string } {
  const db = ws.db
  const run = db.prepare('SELECT id FROM runs WHERE id = ?').get(opts.runId)
  if (!run) throw new Error(`No run with id ${opts.runId}`)
  const columns: string[] = [...BASE, ...(opts.raw ? RAW : [])]
  const csv = extname(opts.out).toLowerCase() === '.csv'
  let rows = 0
  const counted = new Set<number>()
  writeFileAtomically(opts.out, (sink) => {
    if (csv) sink.write(csvRecord(columns))
    for (const r of verdictExportRows(db, opts.runId, opts.raw === true)) {
      const row: Record<string, unknown> = {}
      for (const c of BASE) row[c] = r[c]
      row.call_cached = r.call_cached === null ? null : r.call_cached === 1
      row.latency_ms = tenth(r.latency_ms)
      if (r.call_id !== null) {
        if (counted.has(r.call_id)) {
          row.prompt_tokens = null
          row.completion_tokens = null
        } else counted.add(r.call_id)
      }
      if (opts.raw) {
        row.request = scrub(r.request)
        row.response = scrub(r.response)
      }
      if (csv)
        sink.write(
          csvRecord(
            columns.map((c) => {
              const v = row[c]
              return v === null || v === undefined
                ? null
                : typeof v === 'string' || typeof v === 'number'
                  ? v
                  : JSON.stringify(v)
            }),
          ),
        )
      else sink.write(`${JSON.stringify(row)}\n`)
      rows++
    }
  })
  // RefChecker per-response figures and DCR per-candidate scores go in a file beside it.
  const responsesFile = writeRunResponses(ws, opts.runId, opts.out)
  return { file: opts.out, rows, ...(responsesFile ? { responsesFile } : {}) }
}
