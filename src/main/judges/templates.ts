import type { TemplateSet } from './types'

/**
 * Default prompt templates, one per prompt a method sends. They are user data once a workspace
 * stores them (editable, versioned, stored with each run); these are only the starting point,
 * written for FactLab rather than copied from the papers.
 */
export const TEMPLATE_NAMES = [
  'facts.generate',
  'questions.generate',
  'prompt-tf',
  'faaf',
  'refchecker.extract',
  'refchecker.check',
  'refchecker.check-batched',
  'dcr.dce',
  'dcr.amc',
  'dcr.rai',
  'holistic',
] as const
export type TemplateName = (typeof TEMPLATE_NAMES)[number]

/** The placeholder that says how a structured reply comes back (see answerBy). */
export const ANSWER_BY = 'answer_by'

/** The placeholders each template may use; anything else is refused before a run starts. */
export const TEMPLATE_VARS: Record<TemplateName, readonly string[]> = {
  'facts.generate': ['question', 'reference', ANSWER_BY],
  'questions.generate': ['reference', ANSWER_BY],
  'prompt-tf': ['question', 'candidate', 'fact'],
  faaf: ['question', 'candidate', 'facts', ANSWER_BY],
  'refchecker.extract': ['question', 'candidate', ANSWER_BY],
  'refchecker.check': ['question', 'reference', 'triplet'],
  'refchecker.check-batched': ['question', 'reference', 'triplets', ANSWER_BY],
  'dcr.dce': ['question', 'reference', 'candidate', 'sentences', ANSWER_BY],
  'dcr.amc': ['reasons', ANSWER_BY],
  'dcr.rai': ['question', 'reference', 'candidate', 'sentences', 'feedback', ANSWER_BY],
  holistic: ['question', 'reference', 'candidate', ANSWER_BY],
}

/**
 * `{{answer_by}}`, in the templates whose request asks for structured arguments: how the reply
 * is to come back on the path the request actually takes (providers/outputPath.ts). With forced
 * tool calls the request carries a function to call; without them it carries no tool, and the
 * JSON object to reply with is described after the template's text (providers/jsonText.ts). A
 * prompt that asked for a function call there would ask for something the request does not offer.
 */
export function answerBy(toolCall: boolean): string {
  return toolCall ? 'calling the function' : 'replying with the JSON object described below'
}

/**
 * Templates judged one unit per call: the placeholder that changes from call to call within a
 * candidate, and the passage every one of those calls repeats. When the passage comes before the
 * per-call text, everything up to the per-call text is a shared prefix a provider can cache.
 */
export const PER_CALL_VARS: Partial<Record<TemplateName, { perCall: string; passage: string }>> = {
  'prompt-tf': { perCall: 'fact', passage: 'candidate' },
  'refchecker.check': { perCall: 'triplet', passage: 'reference' },
}

export const DEFAULT_TEMPLATES: Record<TemplateName, { system?: string; user: string }> = {
  'facts.generate': {
    system: 'You turn reference answers into lists of small, checkable facts.',
    user: `Below is a question and a reference answer that is known to be correct.

Break the reference answer into the individual facts it states in order to answer the question.
Rules for every fact:
- one short declarative sentence carrying a single piece of information;
- understandable on its own, without the question or the other facts;
- name people, things and places explicitly: never use a pronoun (he, she, it, they, this…) as the subject or the object;
- do not repeat a fact, and do not add anything the reference answer does not say.

Question:
{{question}}

Reference answer:
{{reference}}

Return the facts by {{answer_by}}.`,
  },
  'questions.generate': {
    system: 'You write questions for question-answering test sets.',
    user: `The text below will serve as the correct answer in a question-answering test.
Write one natural question that this text answers completely. The question must not quote the text
word for word and must not reveal the answer.

Text:
{{reference}}

Return the question by {{answer_by}}.`,
  },
  'prompt-tf': {
    user: `Read the passage and decide whether the statement is true according to the passage alone.
Do not use outside knowledge. If the passage does not support the statement, it is false.

Question the passage answers: {{question}}

Passage:
{{candidate}}

Statement: {{fact}}

Reply with one word, True or False.`,
  },
  faaf: {
    system: 'You check statements against a passage and report the outcome in the form you are asked for.',
    user: `Here is a passage written in answer to a question.

Question: {{question}}

Passage:
{{candidate}}

Answer once, by {{answer_by}}: each fact_N field stands for one statement. Judge every statement
using only what the passage says, not your own knowledge.`,
  },
  'refchecker.extract': {
    system: 'You extract knowledge-graph triplets from text. You never judge whether the text is correct.',
    user: `Read the answer below, given to the question, and list every claim it makes as a
(subject, predicate, object) triplet.
- Keep each triplet to one relation, in the answer's own terms.
- Extract what the answer says even if it is wrong; this is extraction, not fact checking.
- Resolve pronouns to the entity they refer to.

Question:
{{question}}

Answer:
{{candidate}}

Return the triplets by {{answer_by}}.`,
  },
  'refchecker.check': {
    user: `Decide how a claim relates to a reference text. The claim was made by a model answering the
question below and is written as a (subject, predicate, object) triplet.

- Entailment: some part of the reference supports the claim.
- Contradiction: nothing in the reference supports the claim and some part of it conflicts with the claim.
- Neutral: the reference neither supports nor contradicts the claim, or lacks the information to check it.

Judge from the reference only, not from what you know.

Question:
{{question}}

Reference:
{{reference}}

Claim:
{{triplet}}

Reply with exactly one word: Entailment, Neutral or Contradiction.`,
  },
  'refchecker.check-batched': {
    system: 'You check claims against a reference text and report the outcome in the form you are asked for.',
    user: `A model answered the question below; its claims were written as (subject, predicate, object)
triplets. Compare each claim with the reference text only, not with what you know:
- entailment: some part of the reference supports the claim;
- contradiction: nothing supports it and some part of the reference conflicts with it;
- neutral: the reference neither supports nor contradicts it.

Question:
{{question}}

Reference:
{{reference}}

Claims:
{{triplets}}

Answer once, by {{answer_by}}, with one field per claim.`,
  },
  'dcr.dce': {
    system: 'You compare a candidate text with a reference text, one sentence at a time.',
    user: `Check whether a candidate text is consistent with a reference text.
Go through the candidate's numbered sentences one by one. For each sentence:
1. work out everything it states: who does what, when, where, with what result;
2. look for each of those points in the reference;
3. decide whether the sentence can be fully inferred from the reference without contradicting it.
The candidate may leave out information from the reference; that alone is not an inconsistency.

Question (may be empty): {{question}}

Reference:
{{reference}}

Candidate sentences:
{{sentences}}

Answer by {{answer_by}}, with one entry per numbered sentence: first the reason, then the decision.`,
  },
  'dcr.amc': {
    system: 'You classify short evaluation notes as positive or negative.',
    user: `Each numbered note below explains whether one sentence agrees with a reference text.
Mark a note +1 if it concludes the sentence is consistent with the reference, and -1 if it finds
any inconsistency, unsupported addition or contradiction.

Notes:
{{reasons}}

Answer by {{answer_by}}, with one mark per note number.`,
  },
  'dcr.rai': {
    system: 'You revise texts so that they agree with a reference, changing as little as possible.',
    user: `A candidate text was checked sentence by sentence against a reference. Some sentences were
found inconsistent; the reasons are given. Rewrite the candidate so that its inconsistent sentences
agree with the reference:
- fix each inconsistent sentence using its reason and the reference;
- keep consistent sentences as they are;
- keep sentences marked "no verdict" word for word: the check failed on them, so nothing is known
  against them;
- keep the candidate's order, style and roughly its length; add nothing the reference does not support.

Question (may be empty): {{question}}

Reference:
{{reference}}

Candidate:
{{candidate}}

Sentence-by-sentence findings:
{{feedback}}

Return the full rewritten candidate by {{answer_by}}.`,
  },
  holistic: {
    system: 'You grade answers of a question-answering assistant against a reference answer.',
    user: `You are given a user question, a reference answer that is known to be correct, and an answer
produced by an assistant. Judge only whether the information in the reference answer also appears in
the assistant's answer, with the same meaning; wording and tone do not matter.

Examine the question, the reference and the answer closely and explain your reasoning first. Then
give one grade:
- pass: the information of the reference answer is present in the assistant's answer;
- partially_pass: only some of that information is present;
- fail: the information of the reference answer is missing from the assistant's answer.

Question:
{{question}}

Reference answer:
{{reference}}

Assistant's answer:
{{candidate}}

Answer by {{answer_by}}, with your reasoning and the grade.`,
  },
}

export class TemplateError extends Error {
  override name = 'TemplateError'
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g

/** The placeholder names a template body uses, in order of first appearance. */
export function placeholdersOf(body: string): string[] {
  return [...namesOf(body)]
}

/**
 * Placeholder names by template body: a run renders the same few bodies for every call (100,000
 * times in a large batch), so each is scanned once. Bounded, in case bodies keep changing.
 */
const NAMES = new Map<string, readonly string[]>()
function namesOf(body: string): readonly string[] {
  let names = NAMES.get(body)
  if (!names) {
    const seen = new Set<string>()
    for (const m of body.matchAll(PLACEHOLDER)) seen.add(m[1]!)
    names = [...seen]
    if (NAMES.size >= 256) NAMES.clear()
    NAMES.set(body, names)
  }
  return names
}

/**
 * Fills `{{name}}` placeholders. A placeholder without a value is refused rather than left in the
 * prompt, since a model would silently answer a question nobody meant to ask.
 */
export function renderTemplate(
  body: string,
  vars: Readonly<Record<string, string>>,
  label = 'template',
): string {
  const unknown = namesOf(body).filter((name) => !Object.hasOwn(vars, name))
  if (unknown.length > 0) {
    const available = Object.keys(vars)
      .map((v) => `{{${v}}}`)
      .join(', ')
    throw new TemplateError(
      `${label} uses ${unknown.map((u) => `{{${u}}}`).join(', ')}, which is not available here; available: ${available || 'none'}`,
    )
  }
  return body.replace(PLACEHOLDER, (_, name: string) => vars[name]!)
}

/** Problems with a template set (unknown template names or placeholders), for the editor and run start. */
export function checkTemplates(set: TemplateSet): string[] {
  const problems: string[] = []
  for (const [name, tpl] of Object.entries(set)) {
    if (!(TEMPLATE_NAMES as readonly string[]).includes(name)) {
      problems.push(`unknown template "${name}"; known: ${TEMPLATE_NAMES.join(', ')}`)
      continue
    }
    const allowed = TEMPLATE_VARS[name as TemplateName]
    for (const [part, body] of [
      ['system', tpl.system ?? ''],
      ['user', tpl.user],
    ] as const) {
      const bad = placeholdersOf(body).filter((p) => !allowed.includes(p))
      if (bad.length > 0) {
        problems.push(
          `template "${name}" (${part}) uses ${bad.map((b) => `{{${b}}}`).join(', ')}; allowed: ${allowed.map((a) => `{{${a}}}`).join(', ')}`,
        )
      }
    }
  }
  return problems
}
