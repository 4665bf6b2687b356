import { setup } from './helpers.mjs';
const env = await setup();
const page = await env.page(process.argv[2], { width: Number(process.argv[5] ?? 1280), height: 900 });
await page.addStyleTag({ content: '.wrap, main { max-width: none !important; }' }).catch(() => {}); const el = page.getByTestId(process.argv[3]).first();
await el.scrollIntoViewIfNeeded();
await el.evaluate((t) => { const s = t.closest('.table-scroll'); if (s) s.scrollLeft = 10000; }); const box = await el.boundingBox(); box.y += await page.evaluate(() => window.scrollY);
await page.screenshot({ path: process.argv[4], fullPage: true, clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 700) } });
await env.close();
