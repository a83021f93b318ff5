// Playwright drives Debian's Chromium (shared/ARCHITECTURE.md): install it with apt when it is
// missing, never download a browser.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) {
  console.log(`ensure-chromium: ${CHROMIUM} is present`);
  process.exit(0);
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo =
  !asRoot && spawnSync('sh', ['-c', 'command -v sudo'], { stdio: 'ignore' }).status === 0;
if (!asRoot && !sudo) {
  console.error(
    `ensure-chromium: ${CHROMIUM} is missing and this user can neither run apt-get as root nor use sudo.\n` +
      'Install it yourself: apt-get update && apt-get install -y chromium',
  );
  process.exit(1);
}

const run = (args) => {
  const command = sudo ? ['sudo', ...args] : args;
  console.log(`ensure-chromium: running ${command.join(' ')}`);
  const result = spawnSync(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    console.error(
      `ensure-chromium: "${command.join(' ')}" failed (exit ${result.status ?? result.signal}); ` +
        `${CHROMIUM} is still missing, so the Playwright tests cannot run.`,
    );
    process.exit(1);
  }
};

console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium package`);
run(['apt-get', 'update']);
run(['apt-get', 'install', '-y', 'chromium']);

if (!existsSync(CHROMIUM)) {
  console.error(`ensure-chromium: apt-get finished but ${CHROMIUM} does not exist`);
  process.exit(1);
}
console.log(`ensure-chromium: installed ${CHROMIUM}`);
