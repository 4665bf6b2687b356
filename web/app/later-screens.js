// The screens other than the default one: one module, fetched the first time any of them is shown,
// so the page's first download holds only the default screen and what it shares with them.
export { createPrecisionsScreen } from './screens/precisions.js';
export { createMemoryScreen } from './screens/memory.js';
export { createThroughputScreen } from './screens/throughput.js';
export { createRecommendScreen } from './screens/recommend.js';
export { createMigrateScreen } from './screens/migrate.js';
export { createPlanScreen } from './screens/plan.js';
export { createPlacementScreen } from './screens/placement.js';
export { createDecideScreen } from './screens/decide.js';
export { createWorkloadsScreen } from './screens/workloads.js';
export { createCatalogScreen } from './screens/catalog.js';
