/**
 * The annotation project room: a dataset's plan (overlap k, open or fixed assignment drawn from
 * a seed, control rate, hourly rates; `dataset_plans`, `plan_annotators`, `assignments`), the
 * queue that follows it (`queue.ts`, called by annotate/view.ts), control items (`controls`),
 * the lead's dashboard figures, people's cost on the Compare axis, the dataset card's facts, and
 * work packages out to laptops and back (`packages`, `package_opened`). Labels and gold are read
 * through labels/projectReads.ts. Guidelines live next door in src/main/guidelines/.
 *
 * Inside src/main, import the module you need rather than this index.
 */
export { assignItems, controlTurn } from './assign'
export { clearControls, controlAccuracy, listControls, setControls } from './controls'
export { projectDashboard } from './dashboard'
export { withHumanCosts } from './humanCost'
export { exportPackage } from './packageExport'
export { openPackage } from './packageOpen'
export { getPlan, setPlan } from './plan'
export { planProgress } from './progress'
export { nextUnderPlan, planOpenCondition } from './queue'
