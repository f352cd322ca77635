import { describe, expect, it } from 'vitest'
import { pendingKey, readPending, writePending } from '../../src/renderer/src/views/annotate/pendingLabels'

/** The tab's sessionStorage, as far as the kept labels use it. */
function tabStorage(): Storage {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, v),
  }
}

describe('labels kept in the tab across a reload', () => {
  it('keep the save id they were first sent with, so the resend after a reload is stored once', () => {
    const storage = tabStorage()
    const key = pendingKey('/data/team.factlab', 3)
    const kept = { targetId: 7, annotatorId: 3, verdict: 'true', seconds: 4, saveId: '0f3a9c2e77d14b8a' }
    writePending(storage, key, [kept])
    expect(readPending(storage, key)).toEqual([kept])
  })

  it('still read when kept by a page from before save ids', () => {
    const storage = tabStorage()
    const key = pendingKey('/data/team.factlab', 3)
    storage.setItem(key, JSON.stringify([{ targetId: 7, annotatorId: 3, verdict: 'false' }]))
    expect(readPending(storage, key)).toEqual([{ targetId: 7, annotatorId: 3, verdict: 'false' }])
  })
})
