import { describe, expect, it } from 'vitest'
import { buildRequest } from '../../src/main/judges/common'
import {
  checkTemplates,
  DEFAULT_TEMPLATES,
  placeholdersOf,
  renderTemplate,
  TEMPLATE_NAMES,
  TEMPLATE_VARS,
  TemplateError,
} from '../../src/main/judges/templates'
import { scriptedCtx, textReply } from './scripted'

describe('renderTemplate', () => {
  it('fills every placeholder, tolerating spaces inside the braces', () => {
    expect(
      renderTemplate('Q: {{question}} / {{ fact }} / {{question}}', { question: 'why?', fact: 'F' }),
    ).toBe('Q: why? / F / why?')
  })

  it('does not expand placeholders that appear inside a value', () => {
    expect(renderTemplate('{{candidate}}', { candidate: 'literal {{fact}}' })).toBe('literal {{fact}}')
  })

  it('refuses an unknown placeholder, naming it and what is available', () => {
    expect(() => renderTemplate('Judge {{answer}} now', { candidate: 'c' }, 'template "faaf"')).toThrow(
      new TemplateError(
        'template "faaf" uses {{answer}}, which is not available here; available: {{candidate}}',
      ),
    )
  })

  it('leaves single braces and JSON examples alone', () => {
    expect(renderTemplate('{"a": 1} {x}', {})).toBe('{"a": 1} {x}')
  })
})

describe('default templates', () => {
  it('exist for every prompt and use only their allowed placeholders', () => {
    expect(Object.keys(DEFAULT_TEMPLATES).sort()).toEqual([...TEMPLATE_NAMES].sort())
    expect(checkTemplates(DEFAULT_TEMPLATES)).toEqual([])
  })

  it('mention the texts they are about', () => {
    for (const name of TEMPLATE_NAMES) {
      const used = placeholdersOf(DEFAULT_TEMPLATES[name].user)
      const needed = TEMPLATE_VARS[name].filter(
        (v) => v !== 'facts' && v !== 'sentences' && v !== 'candidate',
      )
      for (const v of needed) expect(used, `${name} should use {{${v}}}`).toContain(v)
    }
  })
})

describe('checkTemplates', () => {
  it('reports unknown template names and placeholders a template may not use', () => {
    expect(
      checkTemplates({
        'prompt-tf': { system: 'About {{reference}}', user: '{{fact}} in {{candidate}}' },
        'faaf-v2': { user: 'x' },
      }),
    ).toEqual([
      'template "prompt-tf" (system) uses {{reference}}; allowed: {{question}}, {{candidate}}, {{fact}}',
      expect.stringContaining('unknown template "faaf-v2"'),
    ])
  })
})

describe('buildRequest', () => {
  it('uses the run template over the default and passes temperature and max tokens', () => {
    const { ctx } = scriptedCtx(() => textReply('True'), {
      templates: { 'prompt-tf': { system: 'Be brief.', user: 'Is "{{fact}}" true? {{candidate}}' } },
      settings: { temperature: 0, maxTokens: 5 },
    })
    const req = buildRequest(ctx, 'prompt-tf', { question: 'q', candidate: 'text', fact: 'F' })
    expect(req).toEqual({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Is "F" true? text' }],
      temperature: 0,
      maxTokens: 5,
    })
  })

  it('refuses an edited template that asks for a text the method does not send', () => {
    const { ctx } = scriptedCtx(() => textReply('True'), {
      templates: { 'prompt-tf': { user: '{{reference}}' } },
    })
    expect(() => buildRequest(ctx, 'prompt-tf', { question: 'q', candidate: 'c', fact: 'f' })).toThrow(
      /template "prompt-tf" uses \{\{reference\}\}/,
    )
  })
})
