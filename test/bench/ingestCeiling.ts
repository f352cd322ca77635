import { type DoneBatchCall, insertDoneBatchCalls } from '../../src/main/batches/calls'
import type { VerdictOutcome } from '../../src/main/judges/types'
import type { Db } from '../../src/main/store/connection'
import { relaxedWrite } from '../../src/main/store/statements'
import { writeVerdictsMany } from '../../src/main/verdicts/write'
import { infoRate } from './record'

/** Results per transaction and candidates per verdict write, as the ingest and its pass take them. */
const RESULTS = 1_000
const VERDICTS = 5_000

const cpuMs = (f: () => void): number => {
  const c0 = process.cpuUsage()
  f()
  const c = process.cpuUsage(c0)
  return (c.user + c.system) / 1000
}

/**
 * What the ingest could reach if everything but its SQL writes cost nothing (reading and parsing
 * the results, storing the replies' text, the method, garbage collection): the writes a finished
 * batch answer cannot do without, each done the ingest's own way on the same rows (verdicts by the
 * pass's bulk writer, call rows a hundred per statement, a transaction per chunk; a request's
 * answered state is its call row, so there is no third write), timed by CPU, into `into` (a run of the same dataset with nothing
 * written yet). Against the bar's bare insert (`bareCpuMs`, CPU), that is the ratio's ceiling while
 * each answer keeps its call row. A little low if anything: these writes find the tables holding
 * the bare insert's rows as well as the ingest's, which the ingest's own writes did not.
 */
export function ingestCeiling(db: Db, from: number, into: number, bareCpuMs: number): void {
  const verdicts = db
    .prepare('SELECT target_id, call_id, status, verdict, detail FROM verdicts WHERE run_id = ? ORDER BY id')
    .all(from) as {
    target_id: number
    call_id: number
    status: VerdictOutcome['status']
    verdict: string | null
    detail: string
  }[]
  const writes = verdicts.map((v) => ({
    callId: v.call_id,
    outcomes: [
      {
        targetId: v.target_id,
        status: v.status,
        verdict: v.verdict,
        detail: JSON.parse(v.detail) as Record<string, unknown>,
      },
    ],
  }))
  const calls = db
    .prepare(
      `SELECT call_key, request_hash, batch_request_id, reply_chunk, reply_line, prompt_tokens, completion_tokens,
         cache_read_tokens, cache_write_tokens, cost, finished_at FROM run_calls WHERE run_id = ? ORDER BY id`,
    )
    .raw(true)
    .all(from) as [string, string, number, number, number, number, number, number, number, number, string][]
  const done: DoneBatchCall[] = calls.map(([key, hash, req, chunk, line, pt, ct, crt, cwt, cost]) => ({
    req: { id: req, callKey: key, requestHash: hash, tool: false, state: 'waiting' },
    chunk,
    line,
    promptTokens: pt,
    completionTokens: ct,
    cacheReadTokens: crt,
    cacheWriteTokens: cwt,
    cost,
  }))
  const finishedAt = calls[0]?.[10] ?? ''

  const callsMs = cpuMs(() => {
    for (let i = 0; i < done.length; i += RESULTS)
      relaxedWrite(db, () => insertDoneBatchCalls(db, into, finishedAt, done.slice(i, i + RESULTS)))
  })
  const verdictsMs = cpuMs(() => {
    for (let i = 0; i < writes.length; i += VERDICTS)
      writeVerdictsMany(db, into, writes.slice(i, i + VERDICTS))
  })
  const us = (ms: number) => `${((ms * 1000) / Math.max(verdicts.length, 1)).toFixed(1)} µs`
  infoRate(
    'ceiling with every step but the writes free, each answer keeping its call row (bare insert CPU / those writes’ CPU)',
    bareCpuMs / (callsMs + verdictsMs),
    '',
    `per answer: bare insert ${us(bareCpuMs)}; the ingest's verdict write ${us(verdictsMs)}, call row ${us(callsMs)} (a request's answered state is read off its call row, not written)`,
  )
  infoRate(
    'the same without the call rows (what keeping answers apart from run_calls could reach at most)',
    bareCpuMs / verdictsMs,
    '',
  )
}
