// The browser tests use Debian's Chromium from apt; Playwright never downloads a browser of its own here.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log('Installing Debian chromium for the browser tests...');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
    });
  } else {
    console.error(`${CHROMIUM} is missing. Install it with: sudo apt-get install -y chromium`);
    process.exit(1);
  }
}
