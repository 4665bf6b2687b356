// The views other than the default one, and the parts of Fit & memory that follow its answer: one
// module, fetched the first time any of them is needed, so that the page's first download holds
// only the default view and what it shares with them.
export { createDeploymentsScreen } from './screens/deployments.js';
export { createCompareScreen } from './screens/compare.js';
export { createFleetScreen } from './screens/fleet.js';
export { createAutoscaleScreen } from './screens/autoscale.js';
export { createSpotScreen } from './screens/spot.js';
export { createRegionsScreen } from './screens/regions.js';
export { createCatalogScreen } from './screens/catalog.js';
export { memoryOnGpu, fitOnAny, fitMore } from './screens/memory.js';
