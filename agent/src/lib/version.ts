import fs from 'node:fs';

/** The product version, from the agent's package.json (shipped beside the compiled code). */
export const APP_VERSION: string = (
  JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
