import { setup } from './helpers.mjs';
const env = await setup();
const page = await env.page(process.argv[2], { width: 1280, height: 1300 });
await page.screenshot({ path: process.argv[3] });
await env.close();
