import type { CallName } from '../../../shared/contract'

/**
 * One line per call for `factlab calls`. Keyed by CallName so that a renamed or removed call is a
 * type error here, not a stale line; a call added without one shows only its name there, and
 * test/cli/messages.test.ts asks for one (Partial, so a new call does not break the build first).
 */
export const CALL_DESCRIPTIONS: Partial<Record<CallName, string>> = {
  'workspace.info': 'The workspace file, its schema version and the app version',
  'workspace.annotators': 'Everyone who has labelled in this workspace',
  'workspace.ensureAnnotator': 'The annotator with this name, added if new',
  'workspace.labellers':
    "Who may label here: on a laptop opened from a work package, only the package's annotator",
  'workspace.renameSource':
    "Renames a dataset's reference-label source (MRPC quality…); people keep their names",
  'datasets.list': 'Every dataset with its sizes and labelling progress per annotator',
  'datasets.stoppedImports':
    'Lists imports a full disk stopped half-way, hidden and holding their name, with the items they wrote of the items the file holds when known (factlab datasets says them too)',
  'datasets.withdrawImport':
    "Withdraws a stopped import's hidden rows, freeing the space and the name (factlab withdraw-import)",
  'datasets.names': 'Dataset ids and names only',
  'datasets.brief': "A dataset's label schema and variants",
  'datasets.get': 'One dataset with its sizes and progress',
  'datasets.items': "A page of a dataset's items, filtered as in the Items view (status, variant, search)",
  'datasets.importPreview': 'The first rows of a file as an import would read them',
  'datasets.import': 'Imports a file as a new dataset (all or nothing unless skipBadRows)',
  'annotate.open': 'One item as the Annotate view shows it: its targets, my labels, others and judges',
  'annotate.save': 'Gives, changes or clears (verdict null) my label on a target, with evidence and a note',
  'annotate.next': 'My next unlabelled target after a given one',
  'units.list': 'One item with its current and deleted units',
  'units.edit': 'Changes a unit; a labelled unit gets a new version and keeps its labels on the old one',
  'units.add': 'Adds a unit to an item (a fact) or to a candidate (triplet, sentence, whole)',
  'units.delete': 'Deletes a unit (it can be restored; its labels are kept)',
  'units.restore': 'Brings back a deleted unit',
  'units.split': 'Splits a unit into two or more',
  'units.merge': 'Merges two or more units into one',
  'units.reorder': 'Puts the units of an item or candidate in a new order',
  'units.versions': 'Every version of a unit with the labels each one carries',
  'units.splitSentences': 'Sentence units from the deterministic splitter, for a candidate or a dataset',
  'agreement.summary': 'Inter-annotator agreement of a dataset',
  'agreement.queue': 'Targets where annotators disagree, open or already decided',
  'agreement.adjudicate': "Sets a target's gold verdict as the adjudicator's decision",
  'agreement.stepOut':
    'The annotator stops labelling a dataset to adjudicate it: every verdict there shows, their later labels are refused',
  'agreement.setSelfAdjudication':
    'Whether an adjudicator may decide a target they labelled themselves, per dataset',
  'judges.keys': 'Which providers have an API key, and where keys come from',
  'judges.setKey': 'Desktop only: stores an API key in the keychain',
  'judges.models': 'Known models with their prices and capabilities',
  'judges.saveModel': 'Adds or changes a model entry',
  'judges.model': 'One model entry (defaults for an unknown one)',
  'judges.detectModel':
    "Sends one tiny request per capability to a model's server and records what it honours",
  'judges.configs': 'Saved judge configurations',
  'judges.saveConfig': 'Creates a judge configuration, or changes one by id',
  'judges.templates': 'The newest version of every prompt template',
  'judges.templateHistory': 'Every version of one prompt template',
  'judges.saveTemplate': 'Saves a prompt template as a new version',
  'judges.preview': 'The exact requests a judge config would send',
  'judges.start': 'Starts runs of a judge config on a dataset and waits for them',
  'judges.improve': 'DCR improvement rounds on a DCR run, waited for',
  'judges.improvePlan': 'What improving a DCR run would rewrite (calls, new variants), before it starts',
  'judges.runs': 'Runs with status, progress, tokens and cost',
  'judges.pause': 'Pauses a run that is queued or driven by no live process',
  'judges.cancel': 'Cancels a run that is queued or driven by no live process',
  'judges.resume': 'Resumes a paused or interrupted run and waits for it',
  'judges.batches':
    "A batch-mode run's provider batches (ids, states, counts) and the cost it is heading for",
  'judges.importVerdicts':
    "Imports files of a judge's verdicts made elsewhere as finished runs, one per file (factlab import-verdicts)",
  'judges.rewrites': 'Candidates rewritten by DCR improvement, beside their originals',
  'judges.candidateVerdicts': 'Every judge verdict on one candidate',
  'metrics.compare': 'All judge, human and agreement figures of a dataset',
  'metrics.disagreements': 'Targets where a judge and gold disagree',
  'metrics.labelNext': 'Targets worth labelling next, where judges split most',
  'metrics.report': 'The metrics report as Markdown, CSV or HTML text',
  'metrics.itemLevel': 'Item scores per response and their correlations with human item scores',
  'gold.rule': "How a dataset's gold is made, and every change of that rule",
  'gold.setRule':
    'Sets how gold is made (majority with a tie rule, or a named annotator); gold is recomputed',
  'exports.defaults': 'Where exports would be written by default',
  'exports.dataset': 'Exports a dataset with its labels and gold',
  'exports.cancel': 'Cancels a dataset export started with this exportId; it leaves no file behind',
  'exports.verdicts': "Exports a run's verdicts as JSONL",
  'exports.bundle': "Exports one annotator's labels as a bundle for another workspace",
  'exports.mergeBundle': "Merges another workspace's bundle of labels (all or nothing)",
  'exports.download':
    'Browser mode: a dataset export prepared once for the browser to download (every file it writes, zipped)',
  'exports.downloadVerdicts': "Browser mode: a run's verdicts prepared once for the browser to download",
  'exports.downloadBundle': "Browser mode: one annotator's bundle prepared once for the browser to download",
  'projects.plan':
    "A dataset's annotation plan: k, open or fixed policy, seed, control rate, rates, named annotators",
  'projects.setPlan':
    'Sets the whole plan (fields left out take their defaults); a fixed policy redraws the assignments',
  'projects.dashboard':
    "The lead's dashboard: progress towards k, each annotator's figures, κ, controls, cost, packages; on a laptop, `laptop` is the package's share the figures and forecasts cover",
  'projects.guidelines':
    "A dataset's current guidelines, the earlier versions, and whether an annotator must read them",
  'projects.saveGuidelines':
    'Saves Markdown guidelines as the next version (scripts and active HTML refused)',
  'projects.readGuidelines': 'Records that an annotator has read a version of the guidelines',
  'projects.setControls': 'Marks targets as controls, with the answer from their gold or given',
  'projects.clearControls': 'Turns targets back from controls into ordinary targets',
  'projects.outsidePlan':
    "The people whose labels count in the figures but who are not in the dataset's plan",
  'projects.controls': "A dataset's control targets with their answers and where each answer came from",
  'projects.exportPackage':
    "Writes one annotator's work package (dataset, assignment, guidelines, settings); never over a file",
  'projects.openPackage':
    "Opens a work package in this workspace (the annotator's laptop); the same one twice changes nothing",
}
