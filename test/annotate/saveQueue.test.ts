import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SaveQueue } from '../../src/renderer/src/views/annotate/saveQueue'

/** A server that fails the attempts it is told to and records what it acknowledged, in order. */
function fakeServer(failAttempts: Set<number>) {
  const stored: [number, string][] = []
  let attempt = 0
  return {
    stored,
    send: async (targetId: number, label: string) => {
      await Promise.resolve()
      if (failAttempts.has(attempt++)) throw new Error('the server is not answering')
      stored.push([targetId, label])
    },
  }
}

// Pauses end at once: the test is about order and loss, not about time.
const noPause = () => Promise.resolve()

describe('save queue', () => {
  it('acknowledges every label in the order given, whatever attempts fail', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(5), fc.constantFrom('true', 'false', 'not_clear')), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.uniqueArray(fc.nat(60), { maxLength: 30 }),
        async (labels, failing) => {
          const server = fakeServer(new Set(failing))
          const acknowledged: number[] = []
          const q = new SaveQueue<string>({
            send: server.send,
            onAcknowledged: (id) => acknowledged.push(id),
            pause: noPause,
          })
          const done = labels.map(([t, v]) => q.add(t, v))
          await Promise.all(done)
          await q.flush()
          expect(server.stored).toEqual(labels)
          expect(acknowledged).toEqual(labels.map(([t]) => t))
          expect(q.size).toBe(0)
          expect(q.unacknowledged().size).toBe(0)
          expect(q.lastError).toBeNull()
        },
      ),
      { numRuns: 60 },
    )
  })

  it('lists a failing label as unacknowledged, with the reason, until a retry gets it through', async () => {
    let up = false
    let release: () => void = () => {}
    const stored: string[] = []
    const q = new SaveQueue<string>({
      send: async (_t, label) => {
        if (!up) throw new Error('connection refused')
        stored.push(label)
      },
      // The pause lasts until retryNow wakes it.
      pause: (_ms, wake) =>
        new Promise<void>((resolve) => {
          release = resolve
          void wake.then(resolve)
        }),
    })
    const first = q.add(1, 'true')
    const second = q.add(2, 'false')
    await new Promise((resolve) => setImmediate(resolve))
    expect(q.lastError).toBe('connection refused')
    expect([...q.unacknowledged()]).toEqual([
      [1, 'true'],
      [2, 'false'],
    ])
    expect(stored).toEqual([])
    up = true
    q.retryNow()
    await Promise.all([first, second])
    expect(stored).toEqual(['true', 'false'])
    expect(q.unacknowledged().size).toBe(0)
    expect(q.lastError).toBeNull()
    release()
  })

  it('tries a waiting label again as soon as another call gets through, and keeps it until one is acknowledged', async () => {
    let up = false
    let sends = 0
    const stored: string[] = []
    // Pauses never end by themselves here: only a wake can bring the next try.
    const pauses: number[] = []
    const q = new SaveQueue<string>({
      send: async (_t, label) => {
        sends++
        if (!up) throw new Error('connection refused')
        stored.push(label)
      },
      retryDelays: [250, 5000],
      pause: (ms, wake) => {
        pauses.push(ms)
        return wake
      },
    })
    const settle = () => new Promise((resolve) => setImmediate(resolve))
    const saved = q.add(1, 'true')
    await settle()
    expect(sends).toBe(1)
    expect(pauses).toEqual([250])
    // The server answers another call, but this label's send fails again: it stays, and waits longer.
    q.serverAnswered()
    await settle()
    expect(sends).toBe(2)
    expect(pauses).toEqual([250, 5000])
    expect([...q.unacknowledged()]).toEqual([[1, 'true']])
    expect(q.lastError).toBe('connection refused')
    // The server is back: the next answer sends the label without sitting out the 5 s pause.
    up = true
    q.serverAnswered()
    await saved
    expect(stored).toEqual(['true'])
    expect(sends).toBe(3)
    expect(q.unacknowledged().size).toBe(0)
    expect(q.lastError).toBeNull()
  })

  it('sends nothing more when a call gets through while no label waits out a pause', async () => {
    const server = fakeServer(new Set())
    const q = new SaveQueue<string>({ send: server.send, pause: () => new Promise<void>(() => {}) })
    q.serverAnswered()
    await q.add(1, 'true')
    q.serverAnswered()
    await new Promise((resolve) => setImmediate(resolve))
    expect(server.stored).toEqual([[1, 'true']])
    expect(q.size).toBe(0)
  })

  it('hands back a label the workspace refuses, without retrying it, and goes on with the rest', async () => {
    class Refusal extends Error {}
    const stored: [number, string][] = []
    let sends = 0
    const refused: [number, string, string][] = []
    const q = new SaveQueue<string>({
      send: async (targetId, label) => {
        sends++
        await Promise.resolve()
        if (targetId === 2) throw new Refusal('you stepped out of labelling this dataset')
        if (sends === 1) throw new Error('the server is not answering')
        stored.push([targetId, label])
      },
      isRefusal: (e) => e instanceof Refusal,
      onRefused: (targetId, label, reason) => refused.push([targetId, label, reason]),
      pause: noPause,
    })
    await Promise.all([q.add(1, 'true'), q.add(2, 'false'), q.add(3, 'true')])
    // The failure that is not a refusal was tried again; the refusal was tried once, then given back.
    expect(stored).toEqual([
      [1, 'true'],
      [3, 'true'],
    ])
    expect(refused).toEqual([[2, 'false', 'you stepped out of labelling this dataset']])
    expect(sends).toBe(4)
    expect(q.size).toBe(0)
    expect(q.lastError).toBeNull()
    // A label acknowledged after the refusal clears its message; a new refusal shows again.
    expect(q.lastRefusal).toBeNull()
    await q.add(2, 'true')
    expect(q.lastRefusal).toBe('you stepped out of labelling this dataset')
  })

  it('keeps every state of a target that changed before it was acknowledged (history keeps them all)', async () => {
    const server = fakeServer(new Set([0, 1]))
    const q = new SaveQueue<string>({ send: server.send, pause: noPause })
    void q.add(7, 'true')
    void q.add(7, 'false')
    expect(q.unacknowledged().get(7)).toBe('false')
    await q.flush()
    expect(server.stored).toEqual([
      [7, 'true'],
      [7, 'false'],
    ])
  })

  it('holds labels until the view lets the sending start, then sends all of them in order', async () => {
    const server = fakeServer(new Set())
    const starts: (() => void)[] = []
    const q = new SaveQueue<string>({ send: server.send, pause: noPause, start: (go) => starts.push(go) })
    const first = q.add(1, 'true')
    void q.add(2, 'false')
    // One start asked for, however many labels wait; none has left yet and both are listed.
    expect(starts).toHaveLength(1)
    await Promise.resolve()
    expect(server.stored).toEqual([])
    expect([...q.unacknowledged().keys()]).toEqual([1, 2])
    starts[0]!()
    await first
    await q.flush()
    expect(server.stored).toEqual([
      [1, 'true'],
      [2, 'false'],
    ])
    // Idle again: the next label asks for a new start.
    void q.add(3, 'true')
    expect(starts).toHaveLength(2)
    starts[1]!()
    await q.flush()
    expect(server.stored.at(-1)).toEqual([3, 'true'])
  })

  it('sends at once what is held back when the page is about to go away, and only once', async () => {
    const server = fakeServer(new Set())
    const starts: (() => void)[] = []
    const q = new SaveQueue<string>({ send: server.send, pause: noPause, start: (go) => starts.push(go) })
    void q.add(1, 'true')
    void q.add(2, 'false')
    q.sendNow()
    await q.flush()
    expect(server.stored).toEqual([
      [1, 'true'],
      [2, 'false'],
    ])
    // The held start, coming late, finds nothing to do and sends nothing twice.
    starts[0]!()
    await Promise.resolve()
    expect(server.stored).toHaveLength(2)
    // With nothing held, leaving sends nothing.
    q.sendNow()
    expect(server.stored).toHaveLength(2)
  })
})
