import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { answerAll, type FakeRequest, type Script } from '../fake-llm/server'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import {
  fakeAnthropic,
  judgeArgs as judgeWith,
  modelFlags,
  previewArgs,
  priceArgs,
  runCount,
  savedWorkspace,
} from '../runs/cliHelpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])

const workspaceFile = (items: number, facts: number): string => savedWorkspace(dir(), items, facts).file

/** `judge run` of prompt-tf on the fake Anthropic server, plus whatever a test adds. */
const judgeArgs = (file: string, ...extra: string[]): string[] =>
  judgeWith(file, fakeAnthropic(fake()), 'prompt-tf', ...extra)

/** Whether a Messages body carries a prompt-cache breakpoint anywhere. */
const hasBreakpoint = (r: FakeRequest): boolean => JSON.stringify(r.body).includes('cache_control')

describe('judge run flags', () => {
  it('--no-prompt-cache sends no cache breakpoint; without it every prompt-tf call carries one', async () => {
    const cached = workspaceFile(2, 3)
    let before = fake().requests.length
    const withCache = await cli(judgeArgs(cached, '--no-cache', '--json'))
    expect(withCache.code, withCache.err).toBe(0)
    const sent = fake().requests.slice(before)
    expect(sent).toHaveLength(6)
    expect(sent.every(hasBreakpoint)).toBe(true)
    expect(JSON.parse(withCache.out)).toMatchObject({ status: 'done', verdicts: 6 })
    expect((JSON.parse(withCache.out) as { cache_write_tokens: number }).cache_write_tokens).toBeGreaterThan(
      0,
    )

    const plain = workspaceFile(2, 3)
    before = fake().requests.length
    const off = await cli(judgeArgs(plain, '--no-cache', '--no-prompt-cache', '--json'))
    expect(off.code, off.err).toBe(0)
    const offSent = fake().requests.slice(before)
    expect(offSent).toHaveLength(6)
    expect(offSent.some(hasBreakpoint)).toBe(false)
    expect(JSON.parse(off.out)).toMatchObject({
      status: 'done',
      verdicts: 6,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    })
    const ws = Workspace.open(plain)
    const config = ws.db.prepare('SELECT config FROM runs').pluck().get() as string
    ws.close()
    expect(JSON.parse(config)).toMatchObject({ settings: { promptCache: false } })
  })

  it('judge preview --no-prompt-cache shows the body a run with it sends, without the breakpoint', async () => {
    const file = workspaceFile(1, 2)
    const preview = async (...extra: string[]) => {
      const r = await cli(previewArgs(file, fakeAnthropic(fake()), 'prompt-tf', '--json', ...extra))
      expect(r.code, r.err).toBe(0)
      return JSON.stringify((JSON.parse(r.out) as { calls: { wire: unknown }[] }).calls)
    }
    expect(await preview()).toContain('cache_control')
    expect(await preview('--no-prompt-cache')).not.toContain('cache_control')
  })

  it.each([
    ['--limit', '0'],
    ['--limit', '-1'],
    ['--concurrency', '0'],
    ['--repeat', '0'],
    ['--max-attempts', '0'],
    ['--timeout', '0'],
    ['--limit', ''],
  ])('%s %s is refused as usage, naming the flag, before any run or call', async (flag, value) => {
    const file = workspaceFile(2, 1)
    const before = fake().calls()
    const r = await cli(judgeArgs(file, flag, value))
    expect(r.code).toBe(2)
    expect(r.err).toBe(`factlab: ${flag} must be a whole number of at least 1, got "${value}"\n`)
    expect(r.out).toBe('')
    expect(runCount(file)).toBe(0)
    expect(fake().calls()).toBe(before)
  })

  it('--limit 1 judges one candidate and --repeat 2 makes two runs: a value given is never the default', async () => {
    const file = workspaceFile(3, 2)
    const r = await cli(judgeArgs(file, '--limit', '1', '--repeat', '2', '--json'))
    expect(r.code, r.err).toBe(0)
    const runs = JSON.parse(r.out) as { verdicts: number }[]
    expect(runs.map((s) => s.verdicts)).toEqual([2, 2])
  })

  it('an unknown --variants name is refused with the dataset’s variants, before any run is created', async () => {
    const file = workspaceFile(2, 1)
    const before = fake().calls()
    const r = await cli(judgeArgs(file, '--variants', 'answer,nope,nada'))
    expect(r.code).toBe(1)
    expect(r.err).toBe('factlab: --variants: dataset "d" has no variants "nope", "nada" (it has "answer")\n')
    expect(runCount(file)).toBe(0)
    expect(fake().calls()).toBe(before)
    const empty = await cli(judgeArgs(file, '--variants', ' , '))
    expect(empty.code).toBe(2)
    expect(empty.err).toContain('--variants needs at least one variant name')
    expect(runCount(file)).toBe(0)
    const ok = await cli(judgeArgs(file, '--variants', 'answer', '--json'))
    expect(ok.code, ok.err).toBe(0)
    expect(JSON.parse(ok.out)).toMatchObject({ status: 'done', verdicts: 2 })
  })

  it('a failed run says why it failed, not its id again', async () => {
    const file = workspaceFile(1, 2)
    fake().setScript(() => ({ kind: 'status', status: 500, message: 'the fake is down' }))
    try {
      const r = await cli(judgeArgs(file, '--max-attempts', '1'))
      expect(r.code).toBe(1)
      expect(r.err).toMatch(
        /^factlab: run 1 ended failed: Every call failed \(2 targets, no verdict\)\. First error — server error: .*the fake is down.*\. http:\/\/127\.0\.0\.1:\d+ kept answering with server errors: check the server \(its log says why\), then resume once it recovers; to resume: judge resume 1\n$/,
      )
      expect(r.err).not.toContain('(1)')
    } finally {
      fake().setScript(answerAll('true'))
    }
  })

  it('an unknown lexical model is refused with the known ones instead of running rougeL under its name', async () => {
    const file = workspaceFile(2, 1)
    const lexical = (model: string, ...extra: string[]) =>
      cli(judgeWith(file, { provider: 'lexical', model }, 'lexical', '--json', ...extra))
    const bad = await lexical('rouge9')
    expect(bad.code).toBe(2)
    expect(bad.err).toBe(
      'factlab: --provider lexical: --model names the metric, one of rouge1, rouge2, rougeL, overlap, got "rouge9" (to give the run a name of your own, add --lexical-metric)\n',
    )
    const clash = await lexical('rouge2', '--lexical-metric', 'rouge1')
    expect(clash.code).toBe(2)
    expect(clash.err).toContain('--model rouge2 and --lexical-metric rouge1 name two different metrics')
    expect(runCount(file)).toBe(0)

    expect((await lexical('rouge2')).code).toBe(0)
    expect((await lexical('my-baseline', '--lexical-metric', 'rouge1')).code).toBe(0)
    const ws = Workspace.open(file)
    const settings = (ws.db.prepare('SELECT config FROM runs ORDER BY id').pluck().all() as string[]).map(
      (c) => (JSON.parse(c) as { model: string; settings: unknown }).settings,
    )
    ws.close()
    expect(settings).toEqual([{ lexicalMetric: 'rouge2' }, { lexicalMetric: 'rouge1' }])
  })

  it('judge status, resume and improve refuse a missing run alike, with exit 1', async () => {
    const file = workspaceFile(1, 1)
    const status = await cli(['judge', 'status', '99', '--workspace', file])
    const resume = await cli(['judge', 'resume', '99', '--workspace', file])
    const improve = await cli(['judge', 'improve', '--run', '99', '--workspace', file])
    for (const r of [status, resume, improve]) {
      expect(r.code).toBe(1)
      expect(r.err).toBe('factlab: No run with id 99\n')
    }
    const zero = await cli(['judge', 'status', '0', '--workspace', file])
    expect(zero.code).toBe(2)
    expect(zero.err).toContain('run must be a whole number of at least 1, got "0"')
  })
})

/** A server that answers in text when offered a function, but calls it when made to. */
const callsOnlyWhenForced: Script = (req, i) => {
  if (Array.isArray(req.body.tools) && req.toolName === null) return { kind: 'text', text: 'Yes, it is.' }
  return answerAll('true')(req, i)
}

describe('models', () => {
  it('models probe explains why tools is recorded when the model only calls a function it is made to', async () => {
    const file = workspaceFile(1, 1)
    fake().setScript(callsOnlyWhenForced)
    try {
      const local = { provider: 'openai-compatible', model: 'local', baseUrl: fake().openaiUrl }
      const r = await cli(['models', 'probe', '--workspace', file, ...modelFlags(local)])
      expect(r.code, r.err).toBe(0)
      expect(r.out).toContain(
        'no  tools: answered in text instead of calling the function (when free to choose; tools is recorded all the same, because it calls the function when made to, and runs always make it)\n',
      )
      expect(r.out).toContain('yes forcedToolChoice')
      expect(r.out).toMatch(/^recorded for openai-compatible\/local: tools, forced-tool-choice/m)
      // Probed but never priced: listed as having no price, never as costing 0.
      const list = await cli(['models', 'list', '--workspace', file])
      expect(list.out).toContain(
        `openai-compatible/local at ${fake().openaiUrl}: no price set (its runs' cost is unknown; a price of 0 counts as not set)`,
      )
      expect(list.out).not.toContain('input 0')
    } finally {
      fake().setScript(answerAll('true'))
    }
  })

  it('models price sets what runs cost, models list shows it; bad prices change nothing', async () => {
    const file = workspaceFile(2, 2)
    const empty = await cli(['models', 'list', '--workspace', file])
    expect(empty.code).toBe(0)
    expect(empty.out).toContain(
      'no models recorded: every run\'s cost reads "no price set" until you set prices',
    )
    const unpriced = await cli(judgeArgs(file))
    expect(unpriced.code, unpriced.err).toBe(0)
    expect(unpriced.out).toContain('cost unknown (no price set)')
    expect(unpriced.out).not.toContain('cost 0.0000')
    expect(unpriced.out).toContain(
      `note: anthropic/claude-fake has no price recorded, so its cost is unknown; set one with: factlab models price --provider anthropic --model claude-fake --base-url ${fake().anthropicUrl} --input <per M tokens> --output <per M tokens> (runs made without a price, this one included, are then priced with it)`,
    )

    const price = (...prices: string[]) => cli(priceArgs(file, fakeAnthropic(fake()), ...prices))
    for (const [flag, value, message] of [
      ['--input', '-1', '--input must be a price of 0 or more per million tokens, got "-1"'],
      ['--output', 'cheap', '--output must be a price of 0 or more per million tokens, got "cheap"'],
      ['--batch-discount', '2', '--batch-discount must be a fraction from 0 to 1'],
    ] as const) {
      const bad = await price(flag, value)
      expect(bad.code).toBe(2)
      expect(bad.err).toContain(message)
    }
    const nothing = await price()
    expect(nothing.code).toBe(2)
    expect(nothing.err).toContain('give at least one of --input')
    const lexical = await cli(priceArgs(file, { provider: 'lexical', model: 'rougeL' }, '--input', '1'))
    expect(lexical.code).toBe(2)
    expect((await cli(['models', 'list', '--workspace', file, '--json'])).out).toBe('[]\n')

    const set = await price('--input', '3', '--output', '15')
    expect(set.code, set.err).toBe(0)
    expect(set.out).toContain(
      `anthropic/claude-fake at ${fake().anthropicUrl}: input 3, output 15 per million tokens`,
    )
    expect(set.out).toContain(
      `these prices are for ${fake().anthropicUrl} only: runs made with another --base-url, or none, take that address's prices, if any`,
    )
    const cache = await price('--cache-read', '0.3', '--json')
    expect(JSON.parse(cache.out)).toMatchObject({
      priceInputPerMTok: 3,
      priceOutputPerMTok: 15,
      priceCacheReadPerMTok: 0.3,
      priceCacheWritePerMTok: null,
      batchDiscount: 0.5,
    })
    const list = await cli(['models', 'list', '--workspace', file])
    expect(list.out).toContain('input 3, output 15 per million tokens')
    expect(list.out).toContain("cache read 0.3, cache write the provider's usual ratio")

    const run = await cli(judgeArgs(file, '--no-cache'))
    expect(run.code, run.err).toBe(0)
    expect(Number(/cost (\d+\.\d+)/.exec(run.out)?.[1])).toBeGreaterThan(0)
    expect(run.out).not.toContain('no price recorded')
  })
})

describe('models price names the server address it priced', () => {
  it("says the provider's default address when no --base-url is given, refuses a local server without one, and its help says so", async () => {
    const file = workspaceFile(1, 1)
    const haiku = { provider: 'anthropic', model: 'claude-haiku-4-5' }
    const set = await cli(priceArgs(file, haiku, '--input', '1', '--output', '5'))
    expect(set.code, set.err).toBe(0)
    expect(set.out).toContain('anthropic/claude-haiku-4-5: input 1, output 5 per million tokens')
    expect(set.out).toContain(
      "these prices are for the provider's default address (https://api.anthropic.com) only, the one runs made without --base-url use: runs made with a --base-url take that address's prices, if any",
    )

    const local = await cli(priceArgs(file, { provider: 'openai-compatible', model: 'qwen' }, '--input', '1'))
    expect(local.code).toBe(2)
    expect(local.err).toContain('openai-compatible needs --base-url')
    const listed = JSON.parse((await cli(['models', 'list', '--workspace', file, '--json'])).out) as {
      model: string
    }[]
    expect(listed.map((m) => m.model)).toEqual(['claude-haiku-4-5'])

    // 0 cannot mean free: it is what a model never priced holds, so it reads as no price.
    const zero = await cli(priceArgs(file, haiku, '--input', '0', '--output', '0'))
    expect(zero.code, zero.err).toBe(0)
    expect(zero.out).toContain(
      "anthropic/claude-haiku-4-5: no price set (its runs' cost is unknown; a price of 0 counts as not set)",
    )

    const help = await cli(['models', 'price', '--help'])
    const words = help.out.replace(/\s+/g, ' ')
    expect(words).toContain("for one server address, the --base-url or else the provider's default")
    expect(words).toMatch(/--base-url <url> +the server address these prices are for/)
  })
})

describe('a run with no price, or answered from the cache, never reads as $0', () => {
  it('judge run and judge status say "no price set", and agree on the calls the cache answered', async () => {
    const file = workspaceFile(2, 2)
    const w = ['--workspace', file]
    const first = await cli([...judgeArgs(file), '--json'])
    expect(first.code, first.err).toBe(0)
    const run = (JSON.parse(first.out) as { run: number }).run
    const status = await cli(['judge', 'status', String(run), ...w])
    expect(status.code, status.err).toBe(0)
    expect(status.out).toContain('cost so far unknown (no price set), expected cost unknown')
    expect(status.out).not.toContain('0.0000')

    // The same config again: every answer from the cache, a real nothing paid, and said so alike.
    const again = await cli(judgeArgs(file))
    expect(again.code, again.err).toBe(0)
    const id = Number(/run (\d+):/.exec(again.out)?.[1])
    expect(id).toBeGreaterThan(run)
    const calls = /; (\d+ (?:of \d+ )?calls, all replies reused, nothing sent),/.exec(again.out)?.[1]
    expect(calls, again.out).toBeDefined()
    expect(again.out).toContain('cost 0.0000 (all replies reused, nothing sent)')
    const cached = await cli(['judge', 'status', String(id), ...w])
    expect(cached.out).toContain(`${calls},`)
    expect(cached.out).toContain('cost so far 0.0000 (all replies reused, nothing sent)')
  })
})
