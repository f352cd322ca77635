import { describe, expect, it } from 'vitest'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { type FakeRequest, toolArgsFor } from '../fake-llm/server'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { fakeOpenAi, judgeArgs, onDataset, previewArgs, savedWorkspace } from './cliHelpers'

/**
 * The CLI at parity with the Judges view and the Compare view: `--na-scope` chooses how FaaF reads
 * a reply with an invalid argument (the preview says which), `metrics --refchecker-na` what a
 * checker N/A counts as (the JSON names it). Two items of three facts; item 0's reply has a null.
 */
const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY'])
const nullForItem0 = (req: FakeRequest) => {
  const args = toolArgsFor(req, 'true')
  if (req.userText.includes('Question 0?')) args.fact_1 = null
  return { kind: 'tool' as const, arguments: args }
}

describe('judge --na-scope', () => {
  it('the paper rule by default, the per-field rule on request, and the preview says which', async () => {
    const db = savedWorkspace(dir(), 2, 3).file
    fake().setScript(nullForItem0)
    const paper = await cli(judgeArgs(db, fakeOpenAi(fake()), 'faaf-tf', '--json', '--no-cache'))
    expect(JSON.parse(paper.out)).toMatchObject({ status: 'done', verdicts: 3, na: 3 })
    const field = await cli(
      judgeArgs(db, fakeOpenAi(fake()), 'faaf-tf', '--json', '--no-cache', '--na-scope', 'field'),
    )
    expect(JSON.parse(field.out)).toMatchObject({ status: 'done', verdicts: 5, na: 1 })

    const shown = await cli(previewArgs(db, fakeOpenAi(fake()), 'faaf-tf'))
    expect(shown.out).toContain('reading: If any argument of the reply fails validation')
    const perField = await cli(previewArgs(db, fakeOpenAi(fake()), 'faaf-tf', '--na-scope', 'field'))
    expect(perField.out).toContain(
      'reading: If an argument of the reply fails validation, only that fact is N/A',
    )
  })

  it('refuses a rule it does not know before any call', async () => {
    const db = savedWorkspace(dir(), 1, 2).file
    const before = fake().calls()
    const r = await cli(judgeArgs(db, fakeOpenAi(fake()), 'faaf-tf', '--na-scope', 'some'))
    expect(r.code).not.toBe(0)
    expect(r.err).toContain('--na-scope must be call or field, got "some"')
    expect(fake().calls()).toBe(before)
  })
})

describe('metrics --refchecker-na', () => {
  it('names the rule used in the JSON, and refuses an unknown one', async () => {
    const db = savedWorkspace(dir(), 1, 0, REFCHECKER_SCHEMA).file
    const byDefault = await cli(['metrics', ...onDataset(db), '--json'])
    expect(JSON.parse(byDefault.out).refchecker.na_rule).toBe('neutral')
    const leftOut = await cli(['metrics', ...onDataset(db), '--json', '--refchecker-na', 'left-out'])
    expect(JSON.parse(leftOut.out).refchecker.na_rule).toBe('left-out')
    const bad = await cli(['metrics', ...onDataset(db), '--json', '--refchecker-na', 'drop'])
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('--refchecker-na must be neutral or left-out, got "drop"')
  })
})
