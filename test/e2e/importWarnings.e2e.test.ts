import { describe, expect, it } from 'vitest'
import { appSessions } from './harness'

const start = appSessions()

const FACTS = ['Lake Orrin is known for its blue herons.', 'Lake Orrin is the deepest lake in Arvel.']
const dict = (d: Record<string, string>) =>
  `{${Object.entries(d)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(', ')}}`

/** A WikiEvalFacts row; `poor` is its poor answer's label dict. */
const row = (poor: Record<string, string>, question = 'What is Lake Orrin known for?') => ({
  question,
  answer: 'Lake Orrin is known for its blue herons. It is the deepest lake in Arvel.',
  ungrounded_answer: 'Lake Orrin is known for trout.',
  poor_answer: 'It is a lake.',
  gt_facts: FACTS.map((f) => `- ${f}`).join('\n'),
  human_evaluated_facts_answer: dict({ [FACTS[0]!]: 'True', [FACTS[1]!]: 'True' }),
  human_evaluated_facts_ungrounded_answer: dict({ [FACTS[0]!]: 'True', [FACTS[1]!]: 'False' }),
  human_evaluated_facts_poor_answer: dict(poor),
})

describe('the import dialog', () => {
  it('lists the warnings the import gave (as the CLI prints them) below its result', async () => {
    const app = await start({ demo: false })
    const { page } = app
    // The same row twice (a repeat), then another with a typo in one label key.
    const text = [
      row({ [FACTS[0]!]: 'False', [FACTS[1]!]: 'False' }),
      row({ [FACTS[0]!]: 'False', [FACTS[1]!]: 'False' }),
      row({ 'Lake Orrin has herons.': 'False', [FACTS[1]!]: 'False' }, 'Which lake is deepest in Arvel?'),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n')
    await page.getByRole('button', { name: 'Import dataset…' }).first().click()
    const wizard = page.getByRole('dialog', { name: 'Import a dataset' })
    await wizard.getByLabel('Dataset file').setInputFiles({
      name: 'lakes.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(`${text}\n`),
    })
    await wizard.getByText('the columns look like wikievalfacts').waitFor()
    await wizard.getByRole('button', { name: 'Import', exact: true }).click()
    await wizard.getByText(/Imported “lakes”: 3 items/).waitFor()

    const warnings = wizard.getByRole('region', { name: 'Import warnings' })
    await warnings.waitFor()
    const shown = (await warnings.textContent()) ?? ''
    expect(shown).toContain(
      '1 fact label key matched no fact (its label is kept with the item and written back by a WikiEvalFacts export):',
    )
    expect(shown).toContain(
      'line 3: "Lake Orrin has herons." in human_evaluated_facts_poor_answer (poor_answer)',
    )
    expect(shown).toContain("1 fact has no label in its answer's label dict")
    expect(shown).toContain(
      'line 3: "Lake Orrin is known for its blue herons." is not a key of human_evaluated_facts_poor_answer (poor_answer)',
    )
    expect(shown).toContain('1 row repeats an earlier row')
    expect(shown).toContain('line 2: the same as line 1')
    await app.shot('import-warnings')
  })
})
