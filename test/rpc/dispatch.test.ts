import { describe, expect, it, vi } from 'vitest'
import { ServiceError } from '../../src/main/app/errors'
import { dispatch, type Handlers } from '../../src/main/rpc/dispatch'

/** Only the handlers a test touches; dispatch looks them up by name. */
function fakeHandlers(partial: Record<string, (input: unknown) => unknown>): Handlers {
  return partial as unknown as Handlers
}

const annotator = { id: 1, name: 'Ana', createdAt: '2026-01-01T00:00:00.000Z' }

describe('dispatch', () => {
  it('runs a known call with its parsed input and returns the value', async () => {
    const handler = vi.fn((input: unknown) => ({ ...annotator, name: (input as { name: string }).name }))
    const result = await dispatch(
      fakeHandlers({ 'workspace.ensureAnnotator': handler }),
      'workspace.ensureAnnotator',
      {
        name: '  Ana  ',
      },
    )
    // The contract trims the name before the service sees it.
    expect(handler).toHaveBeenCalledWith({ name: 'Ana' })
    expect(result).toMatchObject({ ok: true, value: { name: 'Ana' } })
  })

  it('refuses an unknown call, including names inherited from Object', async () => {
    for (const name of ['nope.nothing', 'toString', '__proto__', 'constructor']) {
      const result = await dispatch(fakeHandlers({}), name, {})
      expect(result, name).toEqual({
        ok: false,
        error: { code: 'unknown_call', message: `No call named "${name}"` },
      })
    }
  })

  it('refuses bad input with a message naming the call and field, without running the handler', async () => {
    const handler = vi.fn(() => annotator)
    const handlers = fakeHandlers({ 'workspace.ensureAnnotator': handler })
    for (const input of [{ name: '' }, { name: 42 }, {}, 'Ana', null]) {
      const result = await dispatch(handlers, 'workspace.ensureAnnotator', input)
      expect(result.ok).toBe(false)
      if (result.ok) continue
      expect(result.error.code).toBe('bad_input')
      expect(result.error.message).toMatch(/^workspace\.ensureAnnotator: /)
      if (input !== null && typeof input === 'object') expect(result.error.message).toMatch(/name/)
    }
    expect(handler).not.toHaveBeenCalled()
  })

  it('passes a service refusal through with its code', async () => {
    const handlers = fakeHandlers({
      'workspace.ensureAnnotator': () => {
        throw new ServiceError('conflict', 'That name is taken')
      },
    })
    const result = await dispatch(handlers, 'workspace.ensureAnnotator', { name: 'Ana' })
    expect(result).toEqual({ ok: false, error: { code: 'conflict', message: 'That name is taken' } })
  })

  it('turns any other exception, sync or async, into a failed result', async () => {
    const handlers = fakeHandlers({
      'workspace.ensureAnnotator': async () => {
        throw new Error('disk full')
      },
      'workspace.annotators': () => {
        throw 'not an Error'
      },
    })
    expect(await dispatch(handlers, 'workspace.ensureAnnotator', { name: 'Ana' })).toEqual({
      ok: false,
      error: { code: 'failed', message: 'disk full' },
    })
    expect(await dispatch(handlers, 'workspace.annotators', {})).toEqual({
      ok: false,
      error: { code: 'failed', message: 'not an Error' },
    })
  })

  it('checks the output, so a malformed answer never reaches the renderer', async () => {
    const handlers = fakeHandlers({ 'workspace.ensureAnnotator': () => ({ id: 'one', name: 'Ana' }) })
    const result = await dispatch(handlers, 'workspace.ensureAnnotator', { name: 'Ana' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('failed')
    expect(result.error.message).toMatch(
      /workspace\.ensureAnnotator returned an answer that breaks the contract/,
    )
  })
})
