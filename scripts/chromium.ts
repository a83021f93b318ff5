/**
 * Debian's Chromium and the flags every headless run here needs (Playwright's e2e, the mirror
 * bench): no sandbox as root, and no background networking, which this machine's closed
 * network would refuse. scripts/ensure-chromium.mjs installs it when it is missing.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
