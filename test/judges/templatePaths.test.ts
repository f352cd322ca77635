import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { DEFAULT_TEMPLATES } from '../../src/main/judges/templates'
import { latestTemplates, saveTemplate, seedTemplates, templateHistory } from '../../src/main/prompts/store'
import type { ProviderName } from '../../src/main/providers/client'
import type { ModelCapabilities } from '../../src/main/providers/types'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { previewRun } from '../../src/main/runs/preview'
import { BINARY_SCHEMA } from '../../src/shared/labelSchemas'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { previewArgs } from '../runs/cliHelpers'
import { addEveryUnitKind, makeWorkspace } from '../runs/helpers'

const dir = tmpDirs()

/** Capabilities as `--capabilities` sets them: only the named ones are on. */
const caps = (...on: (keyof ModelCapabilities)[]): Partial<ModelCapabilities> => ({
  tools: on.includes('tools'),
  forcedToolChoice: on.includes('forcedToolChoice'),
  strictSchema: false,
  jsonMode: on.includes('jsonMode'),
  jsonSchema: on.includes('jsonSchema'),
})

/** A local OpenAI-compatible server, as the QA commands name it (previews never call it). */
const localQwen = (model: string) => ({
  provider: 'openai-compatible',
  model,
  baseUrl: 'http://localhost:8000/v1',
})

/** Every word the model reads: system prompt and turns, whatever the wire format. */
function promptText(wire: Record<string, unknown>): string {
  const parts: unknown[] = [wire.system, wire.messages]
  return JSON.stringify(parts)
}

const STRUCTURED = ['faaf-tf', 'faaf-tfn-cite', 'refchecker-batched', 'dcr', 'holistic'] as const

/** A yes/no dataset (every method can answer in it) with a unit of every kind per answer. */
function workspaceWithEveryUnit(): { ws: Workspace; datasetId: number } {
  const made = makeWorkspace(dir(), 1, 2, BINARY_SCHEMA)
  addEveryUnitKind(made.ws)
  return made
}

describe('the prompt says how to answer as the request lets the model answer', () => {
  const previewIn = (
    { ws, datasetId }: { ws: Workspace; datasetId: number },
    provider: ProviderName,
    method: string,
    c: Partial<ModelCapabilities>,
  ) =>
    previewRun(
      ws.db,
      {
        datasetId,
        provider,
        model: 'm',
        baseUrl: provider === 'anthropic' ? null : 'http://localhost:8000/v1',
        method,
        capabilities: c,
      },
      BUILTIN_REGISTRY,
    )

  for (const method of STRUCTURED) {
    it(`${method}: a forced function call is asked for only when the request carries the function`, async () => {
      const made = workspaceWithEveryUnit()
      const preview = (provider: ProviderName, m: string, c: Partial<ModelCapabilities>) =>
        previewIn(made, provider, m, c)
      for (const provider of ['openai-compatible', 'anthropic'] as const) {
        const withTools = await preview(provider, method, caps('tools', 'forcedToolChoice'))
        expect(withTools.calls.length).toBeGreaterThan(0)
        for (const call of withTools.calls) {
          expect(call.path.kind).toBe('tool-call')
          expect(call.wire.tools, provider).toBeDefined()
          expect(promptText(call.wire)).toContain('by calling the function')
          expect(call.warning).toBeNull()
        }
      }
      for (const [provider, c] of [
        ['openai-compatible', caps()],
        ['openai-compatible', caps('jsonSchema')],
        ['openai-compatible', caps('jsonMode')],
        ['openai-compatible', caps('tools')],
        ['anthropic', caps()],
      ] as const) {
        const without = await preview(provider, method, c)
        for (const call of without.calls) {
          expect(call.path.kind).not.toBe('tool-call')
          expect(call.wire.tools, `${provider} ${JSON.stringify(c)}`).toBeUndefined()
          const text = promptText(call.wire)
          expect(text, `${provider} ${call.path.kind}`).not.toMatch(/function/i)
          expect(text).toContain('by replying with the JSON object described below')
          expect(text).toContain('Reply with one JSON object and nothing else')
          expect(call.warning).toBeNull()
        }
      }
      made.ws.close()
    })
  }

  it('judge preview with --capabilities none or json-schema asks for no function call (the QA command)', async () => {
    const { ws } = workspaceWithEveryUnit()
    const file = ws.file
    ws.close()
    for (const c of ['none', 'json-schema']) {
      const r = await cli(
        previewArgs(file, localQwen('qwen2.5-7b-instruct'), 'faaf-tf', '--capabilities', c, '--json'),
      )
      expect(r.code, r.err).toBe(0)
      const [call] = (JSON.parse(r.out) as { calls: { wire: Record<string, unknown> }[] }).calls
      expect(call!.wire.tools).toBeUndefined()
      expect(promptText(call!.wire)).not.toMatch(/function call|call the function/i)
    }
  })
})

describe('built-in templates in workspaces made by earlier releases', () => {
  /** The faaf template as earlier releases stored it (version 1, never edited). */
  const FORMER_FAAF = {
    system: 'You check statements against a passage and report the outcome through a function call.',
    user: `Here is a passage written in answer to a question.

Question: {{question}}

Passage:
{{candidate}}

Call the function once. Each of its arguments is one statement; judge every statement using only
what the passage says, not your own knowledge.`,
  }

  const storeFormer = (ws: Workspace) =>
    ws.db
      .prepare(
        "INSERT INTO prompt_templates (name, version, method, body, created_at) VALUES ('faaf', 1, 'faaf', ?, '2025-01-01T00:00:00Z')",
      )
      .run(JSON.stringify(FORMER_FAAF))

  it('a never-edited built-in template gains the current text as a new version; the old one stays for the runs that used it', () => {
    const { ws } = makeWorkspace(dir(), 1, 1)
    ws.db.prepare("DELETE FROM prompt_templates WHERE name = 'faaf'").run()
    storeFormer(ws)
    seedTemplates(ws.db)
    const faaf = latestTemplates(ws.db).find((t) => t.name === 'faaf')!
    expect(faaf).toMatchObject({
      version: 2,
      user: DEFAULT_TEMPLATES.faaf.user,
      system: DEFAULT_TEMPLATES.faaf.system,
    })
    expect(templateHistory(ws.db, 'faaf').map((t) => t.version)).toEqual([2, 1])
    seedTemplates(ws.db)
    expect(templateHistory(ws.db, 'faaf')).toHaveLength(2)
    ws.close()
  })

  it('a template the person edited keeps their words, even when one of its versions is the old built-in text', () => {
    const { ws } = makeWorkspace(dir(), 1, 1)
    ws.db.prepare("DELETE FROM prompt_templates WHERE name = 'faaf'").run()
    storeFormer(ws)
    // Edited under the earlier release: its version 2 is the person's.
    const mine = `${FORMER_FAAF.user}\nBe strict.`
    ws.db
      .prepare(
        "INSERT INTO prompt_templates (name, version, method, body, created_at) VALUES ('faaf', 2, 'faaf', ?, '2025-01-02T00:00:00Z')",
      )
      .run(JSON.stringify({ ...FORMER_FAAF, user: mine }))
    seedTemplates(ws.db)
    expect(latestTemplates(ws.db).find((t) => t.name === 'faaf')).toMatchObject({ version: 2, user: mine })
    ws.close()
  })

  it('the preview warns when an edited template still asks for a function call on a path with no tools, and leaves the words alone', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 1, 1)
    saveTemplate(ws.db, { name: 'faaf', ...FORMER_FAAF })
    const preview = (c: Partial<ModelCapabilities>) =>
      previewRun(
        ws.db,
        {
          datasetId,
          provider: 'openai-compatible',
          model: 'qwen',
          baseUrl: 'http://localhost:8000/v1',
          method: 'faaf-tf',
          capabilities: c,
        },
        BUILTIN_REGISTRY,
      )
    const [schemaCall] = (await preview(caps('jsonSchema'))).calls
    expect(schemaCall!.path.kind).toBe('json-schema')
    expect(schemaCall!.warning).toMatch(/asks the model to call a function, but this request sends no tools/)
    expect(schemaCall!.warning).toContain('{{answer_by}}')
    // With the function offered, the same words are right.
    const [toolCall] = (await preview(caps('tools', 'forcedToolChoice'))).calls
    expect(toolCall!.warning).toBeNull()
    // And a template naming a JSON reply is flagged on the tools path.
    saveTemplate(ws.db, { name: 'faaf', user: `${DEFAULT_TEMPLATES.faaf.user}\nReturn your answer as JSON.` })
    const [jsonOnTools] = (await preview(caps('tools', 'forcedToolChoice'))).calls
    expect(jsonOnTools!.warning).toMatch(
      /asks for a JSON reply, but this request is answered by a forced function call/,
    )
    expect(latestTemplates(ws.db).find((t) => t.name === 'faaf')!.user).toContain(
      'Return your answer as JSON.',
    )
    ws.close()
  })

  it('judge preview on the command line prints the same warning', async () => {
    const { ws } = makeWorkspace(dir(), 1, 1)
    saveTemplate(ws.db, { name: 'faaf', ...FORMER_FAAF })
    const file = ws.file
    ws.close()
    const r = await cli(previewArgs(file, localQwen('qwen'), 'faaf-tf', '--capabilities', 'json-schema'))
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(
      /warning: The template asks the model to call a function, but this request sends no tools/,
    )
  })
})
