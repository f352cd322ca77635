import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../src/main/import'
import { nameParts } from '../../src/main/import/multi/names'
import { getDataset } from '../../src/main/store/repos/datasets'
import { MODELS, SETTING } from '../helpers/refcheckerRelease'
import { fixture, rows, tableCounts, workspaces } from './helpers'

const { ws: newWs, dir } = workspaces()

describe('multi-file import', () => {
  it('names variants from RefChecker file names, and lengthens names that would clash', () => {
    expect(
      nameParts(['/b/zero_context/nq_gpt4_answers.json', '/b/zero_context/nq_llama2_70b_chat_answers.json']),
    ).toEqual([
      {
        file: '/b/zero_context/nq_gpt4_answers.json',
        variant: 'gpt4',
        source: 'nq',
        setting: 'zero_context',
      },
      {
        file: '/b/zero_context/nq_llama2_70b_chat_answers.json',
        variant: 'llama2_70b_chat',
        source: 'nq',
        setting: 'zero_context',
      },
    ])
    const clash = nameParts([
      '/b/zero_context/nq_gpt4_answers.json',
      '/b/noisy_context/msmarco_gpt4_answers.json',
    ])
    expect(clash.map((p) => p.variant)).toEqual(['nq_gpt4', 'msmarco_gpt4'])
    expect(nameParts(['/x/run_a.jsonl', '/x/run_b.jsonl']).map((p) => p.variant)).toEqual(['run_a', 'run_b'])
  })

  it('a folder of seven released files is one dataset with seven variants, no reference needed', async () => {
    const ws = newWs()
    const r = await importFile(ws, { file: SETTING, preset: 'refchecker' })
    expect(r.dataset).toBe('zero_context')
    expect(r.items).toBe(4)
    expect(r.candidates).toBe(28)
    expect(r.units).toBe(48)
    expect(r.labels).toBe(48)
    expect(r.files!.map((f) => f.variant)).toEqual(MODELS)
    const variants = rows<{ variant: string; n: number }>(
      ws,
      'SELECT variant, COUNT(*) AS n FROM candidates GROUP BY variant ORDER BY variant',
    )
    expect(variants.map((v) => v.variant).sort()).toEqual([...MODELS].sort())
    expect(variants.every((v) => v.n === 4)).toBe(true)
    const ds = getDataset(ws.db, r.datasetId)
    expect(ds.source.metadata).toEqual({ setting: 'zero_context', source: 'nq' })
    expect(ds.source.files).toHaveLength(7)
    expect(rows<{ reference: string }>(ws, 'SELECT DISTINCT reference FROM items')).toEqual([
      { reference: '' },
    ])
  })

  it('several files named one by one import the same way, and a second file still adds references', async () => {
    const ws = newWs()
    const files = ['gpt4', 'claude2'].map((m) => join(SETTING, `nq_${m}_answers.json`))
    const ctx = join(dir(), 'contexts.json')
    const ids = ['4410027731650012001', '-7702134998412230042', '1208833570126640113', '-3350917762201458804']
    writeFileSync(
      ctx,
      JSON.stringify(
        ids.map((id, i) => ({ id, question: `Question ${i}?`, reference: `Reference text ${i}.` })),
      ),
    )
    const r = await importFile(ws, { file: files, secondFile: ctx, datasetName: 'two' })
    expect(r).toMatchObject({ dataset: 'two', items: 4, candidates: 8 })
    const refs = rows<{ question: string; reference: string }>(
      ws,
      'SELECT question, reference FROM items ORDER BY id',
    )
    expect(refs[0]).toEqual({ question: 'Question 0?', reference: 'Reference text 0.' })
  })

  it('one bad file imports nothing from any file', async () => {
    const ws = newWs()
    const folder = join(dir(), 'setting')
    mkdirSync(folder)
    cpSync(SETTING, folder, { recursive: true })
    writeFileSync(
      join(folder, 'nq_zeta_answers.json'),
      JSON.stringify([
        { id: '1', response: 'x', claude2_response_kg: [{ triplet: ['a', 'b', 'c'], human_label: 'Maybe' }] },
      ]),
    )
    const before = tableCounts(ws)
    await expect(importFile(ws, { file: folder })).rejects.toThrow(
      /nq_zeta_answers\.json, record 1 of the JSON array/,
    )
    expect(tableCounts(ws)).toEqual(before)
  })

  it('refuses files whose layouts differ', async () => {
    const ws = newWs()
    await expect(
      importFile(ws, { file: [join(SETTING, 'nq_gpt4_answers.json'), fixture('wikieval.jsonl')] }),
    ).rejects.toThrow(/files imported together must share one layout/)
  })
})
