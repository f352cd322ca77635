/**
 * A CPU profile of a bench's measured window only, written where FACTLAB_BENCH_PROFILE names
 * (a .cpuprofile that Chrome's DevTools opens): profiling a whole bench buries the window under
 * its set-up.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

export interface WindowProfile {
  start(): void
  stop(): void
}

/**
 * `part` names one of several windows of a bench, written beside the named file
 * (views.cpuprofile → views-Compare.cpuprofile).
 */
export function windowProfile(part?: string): WindowProfile {
  const named = process.env.FACTLAB_BENCH_PROFILE
  const path = named && part ? named.replace(/(\.cpuprofile)?$/, `-${part}.cpuprofile`) : named
  if (!path) return { start: () => undefined, stop: () => undefined }
  const session = new Session()
  session.connect()
  return {
    start() {
      session.post('Profiler.enable')
      session.post('Profiler.setSamplingInterval', { interval: 200 })
      session.post('Profiler.start')
    },
    stop() {
      session.post('Profiler.stop', (error, r) => {
        if (error) throw error
        writeFileSync(path, JSON.stringify(r.profile))
        session.disconnect()
      })
    },
  }
}
