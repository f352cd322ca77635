import { type ChildProcess, spawn } from 'node:child_process'
import { hostname } from 'node:os'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { RunLeaseHeld, readLease } from '../../src/main/runs/lease'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true'), latencyMs: 60 })
})
afterAll(() => fake.close())

type Db = ReturnType<typeof makeWorkspace>['ws']['db']

const doneKeys = (db: Db, runId: number) =>
  new Set(
    (
      db.prepare("SELECT call_key FROM run_calls WHERE run_id = ? AND status = 'done'").all(runId) as {
        call_key: string
      }[]
    ).map((r) => r.call_key),
  )

const leaseLog = (db: Db, runId: number) =>
  db.prepare('SELECT event, pid, note FROM run_lease_log WHERE run_id = ? ORDER BY id').all(runId) as {
    event: string
    pid: number
    note: string | null
  }[]

function drive(
  file: string,
  runId: number,
  exitAfter?: number,
): { child: ChildProcess; exited: Promise<void> } {
  const args = ['--import', 'tsx', 'test/runs/killChild.ts', file, String(runId)]
  if (exitAfter !== undefined) args.push(String(exitAfter))
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return { child, exited }
}

/**
 * Waits for a child process that starts through tsx: on a busy machine its start alone took
 * longer than the twenty seconds this once allowed, so the deadline is the test's own.
 */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 150_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The candidate key each request after `from` asked for. */
const askedSince = (from: number) =>
  fake.requests.slice(from).map((r) => `mini:${/Check candidate (\d+):/.exec(r.userText)?.[1]}`)

it('refuses a second driver while the CLI drives a run; after SIGKILL, resume takes over without repeating a call', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 40, 3)
  const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 2, cache: false }))
  const requestsAtStart = fake.requests.length
  const { child, exited } = drive(ws.file, runId)
  await until(() => doneKeys(ws.db, runId).size >= 1, 'the child to finish a call')

  // Held back so the child cannot finish while the second drivers are being refused.
  fake.setLatency(500)
  // The CLI words a refusal like every call's: the engine's message, without the code.
  const who = new RegExp(
    `^factlab: run ${runId} is being driven by the CLI, pid ${child.pid} on host ${hostname()}, since [\\d: -]+; stop it there or wait$`,
  )
  const second = engineFor(ws)
  expect(() => second.start(runId)).toThrow(RunLeaseHeld)
  const refusal = (fn: () => unknown) => {
    try {
      fn()
    } catch (error) {
      return `factlab: ${(error as Error).message}`
    }
    return 'not refused'
  }
  expect(refusal(() => second.start(runId))).toMatch(who)
  expect(refusal(() => second.pause(runId))).toMatch(who)
  const viaCli = await cli(['judge', 'resume', String(runId), '--workspace', ws.file])
  expect(viaCli.code).toBe(1)
  expect(viaCli.err.trim()).toMatch(who)
  expect(viaCli.err).not.toMatch(/^factlab: conflict: /)
  expect(ws.db.prepare('SELECT status FROM runs WHERE id = ?').get(runId)).toEqual({ status: 'running' })
  fake.setLatency(60)

  await until(() => doneKeys(ws.db, runId).size >= 8, 'eight finished calls')
  child.kill('SIGKILL')
  await exited

  const finishedBeforeKill = doneKeys(ws.db, runId)
  expect(finishedBeforeKill.size).toBeGreaterThanOrEqual(8)
  expect(finishedBeforeKill.size).toBeLessThan(40)
  // A killed process cannot let go of its lease; it is still there, naming the dead child.
  expect(readLease(ws.db, runId)?.pid).toBe(child.pid)
  const requestsBefore = fake.requests.length

  const notices: string[] = []
  const summary = await engineFor(ws, { onNotice: (_id, m) => notices.push(m) }).start(runId)
  expect(summary).toMatchObject({ status: 'done', verdicts: 120 })
  const askedAfter = askedSince(requestsBefore)
  expect(askedAfter.filter((k) => finishedBeforeKill.has(k))).toEqual([])
  expect(new Set(askedAfter).size).toBe(askedAfter.length)
  expect(askedAfter.length).toBe(40 - finishedBeforeKill.size)
  // Had a refused driver gone ahead, some candidate would have been asked twice: only calls the
  // child had not stored when it was killed may be asked again. Those are the two in flight and,
  // as a call's slot is freed once its reply is in hand, at most one reply per slot still
  // waiting for its turn's commit.
  const asked = askedSince(requestsAtStart)
  expect(new Set(asked).size).toBe(40)
  expect(asked.length).toBeLessThanOrEqual(44)

  expect(notices).toHaveLength(1)
  expect(notices[0]).toMatch(
    new RegExp(`^took over run ${runId} from the CLI, pid ${child.pid} on host .+: that process is gone$`),
  )
  expect(leaseLog(ws.db, runId).map((e) => e.event)).toEqual(['claimed', 'taken-over', 'released'])
  expect(readLease(ws.db, runId)).toBeNull()
  ws.close()
}, 180_000)

it('lets go of the run when the driving process exits, so the next driver starts without a takeover', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 30, 1)
  const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 2, cache: false }))
  const { child, exited } = drive(ws.file, runId, 3)
  await exited

  expect(readLease(ws.db, runId)).toBeNull()
  expect(leaseLog(ws.db, runId)).toEqual([
    { event: 'claimed', pid: child.pid, note: null },
    { event: 'released', pid: child.pid, note: 'the process exited' },
  ])
  const finished = doneKeys(ws.db, runId)
  const requestsBefore = fake.requests.length
  const notices: string[] = []
  const summary = await engineFor(ws, { onNotice: (_id, m) => notices.push(m) }).start(runId)
  expect(summary).toMatchObject({ status: 'done', verdicts: 30 })
  expect(notices).toEqual([])
  expect(askedSince(requestsBefore).filter((k) => finished.has(k))).toEqual([])
  ws.close()
}, 180_000)
