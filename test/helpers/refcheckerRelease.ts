import { join } from 'node:path'

/**
 * Fixtures written for the project in RefChecker's released layout:
 * benchmark/human_annotations_v1/<setting>/<source>_<model>_answers.json, each a JSON list of
 * {id, response, claude2_response_kg: [{triplet: [s, p, o], human_label}]}, no question, no reference.
 */
export const RELEASE = join(__dirname, '../fixtures/import/refchecker_release/benchmark/human_annotations_v1')
export const SETTING = join(RELEASE, 'zero_context')
export const MODELS = [
  'alpaca_7B',
  'chatgpt',
  'claude2',
  'davinci001',
  'falcon_40B_instruct',
  'gpt4',
  'llama2_70b_chat',
]
export const modelFile = (model: string) => join(SETTING, `nq_${model}_answers.json`)
