import { describe, expect, it } from 'vitest'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { JUDGE_METHODS } from '../../src/shared/domain'
import {
  FAAF_SCHEMA,
  holisticSchema,
  type LabelSchema,
  REFCHECKER_SCHEMA,
} from '../../src/shared/labelSchemas'
import { answerAll } from '../fake-llm/server'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, makeWorkspace } from './helpers'

/** Every judge method from the command line, over both wire formats, as a user would run it. */
const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

// Each method on a dataset in its own words (judges/schemaFit.ts refuses some other pairings).
const NATIVE: Record<string, LabelSchema> = {
  refchecker: REFCHECKER_SCHEMA,
  'refchecker-batched': REFCHECKER_SCHEMA,
  holistic: holisticSchema(),
}

function workspaceWithEveryKind(method: string): {
  file: string
  targets: (kinds: readonly string[]) => number
} {
  const { ws } = makeWorkspace(dir(), 2, 3, NATIVE[method] ?? FAAF_SCHEMA)
  addEveryUnitKind(ws)
  const counts = new Map(
    (
      ws.db
        .prepare(
          'SELECT u.kind AS kind, COUNT(*) AS n FROM targets t JOIN units u ON u.id = t.unit_id GROUP BY u.kind',
        )
        .all() as { kind: string; n: number }[]
    ).map((r) => [r.kind, r.n]),
  )
  const file = ws.file
  ws.close()
  return { file, targets: (kinds) => kinds.reduce((sum, k) => sum + (counts.get(k) ?? 0), 0) }
}

const WIRES = ['openai', 'anthropic'] as const

describe.each(WIRES)('factlab judge run over %s', (wire) => {
  it.each(JUDGE_METHODS)('%s judges every target of its unit kinds', async (method) => {
    fake().setScript((req, n) => {
      if (req.schema) return answerAll('true')(req, n)
      return { kind: 'text', text: /entailment/i.test(req.userText) ? 'Entailment' : 'True' }
    })
    const { file, targets } = workspaceWithEveryKind(method)
    const provider =
      method === 'lexical'
        ? ['--provider', 'lexical', '--model', 'rougeL']
        : [
            '--provider',
            wire,
            '--model',
            'fake-model',
            '--base-url',
            wire === 'anthropic' ? fake().anthropicUrl : fake().openaiUrl,
          ]
    const r = await cli([
      'judge',
      'run',
      '--workspace',
      file,
      '--dataset',
      'd',
      ...provider,
      '--method',
      method,
      '--json',
    ])
    expect(r.code, r.err).toBe(0)
    const expected = targets(BUILTIN_REGISTRY.judges[method]!.unitKinds)
    expect(expected).toBeGreaterThan(0)
    expect(JSON.parse(r.out)).toMatchObject({ status: 'done', verdicts: expected, na: 0, errors: 0 })
  })
})
