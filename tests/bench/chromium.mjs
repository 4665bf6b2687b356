// The browser every bench script measures in: Debian's Chromium, headless, without the background
// work (network fetches of its own, component updates, sync) that would run beside a measurement.
import { chromium } from 'playwright-core';

export const launchChromium = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** The median of `xs` (the upper one of an even count), as every bench figure is reported. */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
