import { afterAll, beforeAll } from 'vitest'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { TEST_KEY } from '../runs/helpers'

/**
 * One fake LLM server for the whole file, answering "true" to every fact, with the test key in
 * the given environment variables so runs can start. Returns a getter because the server only
 * exists once `beforeAll` has run.
 */
export function fakeLlmForFile(keyVars: readonly string[] = ['OPENAI_API_KEY']): () => FakeServer {
  let fake: FakeServer | undefined
  beforeAll(async () => {
    fake = await startFakeLlm({ script: answerAll('true') })
    for (const name of keyVars) process.env[name] = TEST_KEY
  })
  afterAll(async () => {
    for (const name of keyVars) delete process.env[name]
    await fake?.close()
  })
  return () => {
    if (!fake) throw new Error('The fake LLM server starts in beforeAll; use it inside a test')
    return fake
  }
}
