import { readFileSync } from 'node:fs'

/**
 * What the main thread alone has spent, from Linux's per-thread counters: the workspace's
 * integrity check runs in a worker thread of the same process, which the process's figures would
 * count. Elsewhere, the process's CPU time and no page faults.
 */
function threadStat(): string[] | null {
  try {
    return readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  } catch {
    return null
  }
}

/** CPU time of the main thread, in ms (10 ms steps on Linux). */
export function mainThreadCpuMs(): number {
  const fields = threadStat()
  if (fields) return (Number(fields[11]) + Number(fields[12])) * 10
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}

/** Minor page faults of the main thread so far: each a page of memory touched for the first time. */
export function mainThreadFaults(): number | null {
  const fields = threadStat()
  return fields ? Number(fields[7]) : null
}

/**
 * What touching fresh memory costs on this machine, in µs a page fault: 64 MB allocated and
 * written a byte a page, the kernel giving each page on first touch. On a virtual machine this
 * can be ten times a bare machine's cost, and a cold view that reads a million targets touches
 * a hundred megabytes.
 */
export function pageFaultMicros(): number | null {
  const f0 = mainThreadFaults()
  if (f0 === null) return null
  const t0 = performance.now()
  const b = Buffer.allocUnsafeSlow(64 * 2 ** 20)
  for (let i = 0; i < b.length; i += 4096) b[i] = 1
  const ms = performance.now() - t0
  const faults = (mainThreadFaults() ?? f0) - f0
  return faults > 0 ? (ms * 1000) / faults : null
}
