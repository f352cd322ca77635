/**
 * The fake server in its own process (for the bench: a real provider does not share the
 * client's event loop). Prints `{"openaiUrl", "anthropicUrl"}` on one line, then serves until
 * stdin closes. Usage: node --import tsx test/fake-llm/serve.ts <latencyMs>
 */
import { answerAll, startFakeLlm } from './server'

const latencyMs = Number(process.argv[2] ?? 0)
const fake = await startFakeLlm({
  script: (req, n) => (req.schema ? answerAll('true')(req, n) : { kind: 'text', text: 'True' }),
  latencyMs,
  keepRequests: false,
  // The bench keeps one fake for all its figures, with pauses between them; closes it at the end.
  keepAliveMs: 3_600_000,
})
process.stdout.write(`${JSON.stringify({ openaiUrl: fake.openaiUrl, anthropicUrl: fake.anthropicUrl })}\n`)
process.stdin.resume()
process.stdin.on('end', () => {
  void fake.close().then(() => process.exit(0))
})
