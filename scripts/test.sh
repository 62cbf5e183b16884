#!/usr/bin/env bash
# The whole test suite: `npm test`. Installs system test dependencies when missing, builds what
# ships, then runs unit and integration tests (vitest) and browser tests (Playwright + Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-test-deps.sh
npm run build --silent
npx vitest run
npx playwright test
