import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dispatch, type Handlers } from '../../src/main/rpc/dispatch'
import { cli } from '../helpers/cli'
import { demoWorkspaceIn } from '../helpers/demoWorkspace'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('zod refusals are one readable line, never JSON', () => {
  it('factlab call with bad input names the field and the problem on one line (exit 1)', async () => {
    const file = demoWorkspaceIn(tmp())
    const r = await cli([
      'call',
      'projects.setPlan',
      '{"datasetId":1,"k":0,"controlRate":2}',
      '--workspace',
      file,
    ])
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      'factlab: projects.setPlan: k: Too small: expected number to be >=1; controlRate: Too big: expected number to be <=1\n',
    )
  })

  it('a ZodError thrown inside a handler reaches the caller as "field: problem", not its JSON', async () => {
    const handlers = {
      'datasets.names': () =>
        z.object({ rows: z.array(z.object({ name: z.string() })) }).parse({ rows: [{}] }),
    } as unknown as Handlers
    const r = await dispatch(handlers, 'datasets.names', {})
    expect(r).toEqual({
      ok: false,
      error: { code: 'failed', message: 'rows[0].name: Invalid input: expected string, received undefined' },
    })
  })
})
