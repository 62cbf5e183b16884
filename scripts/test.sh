#!/usr/bin/env bash
# The whole test suite: `npm test`. Lints (the layer, slice and naming rules live in eslint.config.js,
# so CI fails on a broken boundary), installs system test dependencies when missing, builds what
# ships, then runs unit and integration tests (vitest) and browser tests (Playwright + Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

npm run lint --silent
bash scripts/ensure-test-deps.sh
npm run build --silent
# The first page's JavaScript budget (web/size-budget.json), over the build just made.
npx tsx scripts/size-budget.ts
npx vitest run
npx playwright test
