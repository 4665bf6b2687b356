// Typings of gpufleet/catalog: the catalogs gpufleet ships, as texts.
import type { CatalogTexts, PriceFileText } from './index.js';

export const gpuInstances: string;
export const modelConfig: string;
export const workloads: string;
/** Each provider's default-region price file, e.g. { name: 'prices/aws/us-east-1.json', text }. */
export const priceFiles: PriceFileText[];
declare const catalog: CatalogTexts & { priceFiles: PriceFileText[] };
export default catalog;
