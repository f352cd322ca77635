import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import { createRuns } from '../../src/main/runs/create'
import { GENERATE_METHODS, JUDGE_METHODS } from '../../src/shared/domain'
import {
  configProblems,
  LLM_PROVIDERS,
  methodProblem,
  PROVIDER_GENERATE_METHODS,
  PROVIDER_JUDGE_METHODS,
} from '../../src/shared/judgeValidity'
import { seedWorkspace } from '../annotate/fixture'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('judge configs: which provider runs which method', () => {
  it('the contract accepts exactly the provider × method pairs the provider lists, and says why not', async () => {
    const s = seedWorkspace(tmp())
    const handlers = buildHandlers(s.ctx)
    for (const provider of LLM_PROVIDERS)
      for (const method of [...JUDGE_METHODS, ...GENERATE_METHODS]) {
        const listed =
          (PROVIDER_JUDGE_METHODS[provider] as readonly string[]).includes(method) ||
          (PROVIDER_GENERATE_METHODS[provider] as readonly string[]).includes(method)
        const r = await dispatch(handlers, 'judges.saveConfig', {
          name: `${provider} ${method}`,
          provider,
          model: 'm',
          baseUrl: provider === 'openai-compatible' ? 'http://localhost:11434/v1' : null,
          method,
          settings: {},
        })
        expect({ provider, method, ok: r.ok }).toEqual({ provider, method, ok: listed })
        if (!r.ok) {
          expect(r.error.code).toBe('bad_input')
          expect(r.error.message).toContain(methodProblem(provider, method)!)
        }
      }
  })

  it('refuses lexical with faaf-tfn — the config that once ran and "succeeded" with nothing but errors', async () => {
    expect(methodProblem('lexical', 'faaf-tfn')).toMatch(
      /calls no model: it judges with the lexical method only/,
    )
    expect(methodProblem('openai', 'lexical')).toMatch(/lexical provider only/)
    // A config saved before the rule (or CLI flags) meets it when a run is created.
    const s = seedWorkspace(tmp())
    expect(() =>
      createRuns(s.ws.db, { datasetId: s.ds.id, provider: 'lexical', model: 'rougeL', method: 'faaf-tfn' }),
    ).toThrow(/lexical provider calls no model/)
    expect(s.ws.db.prepare('SELECT COUNT(*) AS n FROM runs WHERE provider = ?').get('lexical')).toEqual({
      n: 0,
    })
  })

  it('keeps unit generation out of the judge methods and lists what a draft still lacks', () => {
    for (const p of LLM_PROVIDERS)
      for (const m of PROVIDER_JUDGE_METHODS[p])
        expect(GENERATE_METHODS as readonly string[]).not.toContain(m)
    expect(
      configProblems({
        name: '',
        provider: 'openai-compatible',
        model: '',
        baseUrl: null,
        method: 'lexical',
      }),
    ).toEqual([
      'a name',
      'a model name',
      'a base URL for the openai-compatible server',
      'The lexical method runs on the lexical provider only (it calls no model)',
    ])
    expect(
      configProblems({ name: 'b', provider: 'lexical', model: 'rougeL', baseUrl: null, method: 'lexical' }),
    ).toEqual([])
  })
})
