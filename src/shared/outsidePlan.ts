/**
 * The one sentence every view (Agreement, Compare, `metrics`, the Project view) gives about
 * people the plan does not name: their labels count in agreement, gold and Compare like anyone's,
 * and only the Project view's progress towards k leaves them out. Empty when there are none.
 */
export function outsidePlanNote(people: readonly string[]): string {
  if (people.length === 0) return ''
  const who = people.length === 1 ? people[0]! : `${people.slice(0, -1).join(', ')} and ${people.at(-1)!}`
  const are = people.length === 1 ? 'is' : 'are'
  return `${who} ${are} not in the plan: their labels count here (agreement, gold, Compare) like anyone's; only the Project view's progress towards k leaves them out.`
}
