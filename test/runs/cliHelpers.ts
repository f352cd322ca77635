import { Workspace } from '../../src/main/app/workspace'
import type { RunInfo } from '../../src/shared/contract/runs'
import type { LabelSchema } from '../../src/shared/labelSchemas'
import type { FakeServer } from '../fake-llm/server'
import type { TestApp } from '../helpers/app'
import { makeWorkspace } from './helpers'

/**
 * The set-up judge-run tests share, so each test file says only what it tests: a saved workspace
 * with the test dataset `d`, the command lines a person types to judge or price it, and waiting
 * for a run the app drives.
 */

/** makeWorkspace's dataset, closed so the CLI or an app can open the file: the file and the dataset id. */
export function savedWorkspace(
  dir: string,
  items: number,
  facts: number,
  labelSchema?: LabelSchema,
): { file: string; datasetId: number } {
  const { ws, datasetId } = makeWorkspace(dir, items, facts, labelSchema)
  const file = ws.file
  ws.close()
  return { file, datasetId }
}

/** A model as the flags name it; without a base URL the provider's own address (never reached). */
export interface ModelFlags {
  provider: string
  model: string
  baseUrl?: string
}

/** The fake server's OpenAI model. */
export const fakeOpenAi = (fake: FakeServer): ModelFlags => ({
  provider: 'openai',
  model: 'gpt-fake',
  baseUrl: fake.openaiUrl,
})

/** The fake server's Anthropic model. */
export const fakeAnthropic = (fake: FakeServer): ModelFlags => ({
  provider: 'anthropic',
  model: 'claude-fake',
  baseUrl: fake.anthropicUrl,
})

/** Flags naming the test dataset of a workspace file. */
export const onDataset = (file: string): string[] => ['--workspace', file, '--dataset', 'd']

/** Flags naming a model: provider, model, and its base URL when it has one. */
export const modelFlags = (m: ModelFlags): string[] => [
  '--provider',
  m.provider,
  '--model',
  m.model,
  ...(m.baseUrl === undefined ? [] : ['--base-url', m.baseUrl]),
]

/** `judge run` of a method on the test dataset with a model, then whatever a test adds. */
export const judgeArgs = (file: string, m: ModelFlags, method: string, ...extra: string[]): string[] => [
  'judge',
  'run',
  ...onDataset(file),
  ...modelFlags(m),
  '--method',
  method,
  ...extra,
]

/** `judge preview` of the same: the requests a run would send, none sent. */
export const previewArgs = (file: string, m: ModelFlags, method: string, ...extra: string[]): string[] => [
  'judge',
  'preview',
  ...onDataset(file),
  ...modelFlags(m),
  '--method',
  method,
  ...extra,
]

/** `models price` of a model in a workspace file, then the price flags (`--input 1 --output 4`). */
export const priceArgs = (file: string, m: ModelFlags, ...prices: string[]): string[] => [
  'models',
  'price',
  '--workspace',
  file,
  ...modelFlags(m),
  ...prices,
]

/** How many runs a workspace file holds: a refused command must leave it as it was. */
export function runCount(file: string): number {
  const ws = Workspace.open(file)
  try {
    return ws.db.prepare('SELECT COUNT(*) FROM runs').pluck().get() as number
  } finally {
    ws.close()
  }
}

/**
 * The dataset's newest run as the Judges view lists it, once `settled` holds for it (or after
 * twenty seconds, so a run that never settles fails the test's assertion instead of hanging).
 */
export async function newestRunOnce(
  value: TestApp['value'],
  datasetId: number,
  settled: (run: RunInfo | undefined) => boolean,
): Promise<RunInfo | undefined> {
  const deadline = Date.now() + 20_000
  let run = (await value<RunInfo[]>('judges.runs', { datasetId }))[0]
  while (!settled(run) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20))
    run = (await value<RunInfo[]>('judges.runs', { datasetId }))[0]
  }
  return run
}
