import fs from 'node:fs';
import path from 'node:path';

/**
 * How a hub starts the agent, read from the checkout's systemd unit (systemd/nexus-agent.service),
 * so that every benchmark measures the process a hub runs: the memory settings of its
 * Environment= lines (NODE_OPTIONS, MALLOC_MMAP_THRESHOLD_), node's own flags and the module of its
 * ExecStart= line. `npm start` and the image launch it the same way (tests/unit/appliance.test.ts).
 */
export interface ApplianceLaunch {
  /** The unit's launch variables that change how node runs (not its configuration). */
  env: Record<string, string>;
  /** node's command-line flags, before the module (V8 flags not allowed in NODE_OPTIONS). */
  nodeArgs: string[];
  /** The module to run, as a path in the checkout. */
  entry: string;
}

export function applianceLaunch(root: string): ApplianceLaunch {
  const unit = fs.readFileSync(path.join(root, 'systemd/nexus-agent.service'), 'utf8');
  const env: Record<string, string> = {};
  for (const m of unit.matchAll(/^Environment=(NODE_OPTIONS|MALLOC_MMAP_THRESHOLD_)=(.*)$/gm)) {
    env[m[1]!] = m[2]!;
  }
  const execStart = /^ExecStart=(\S+)((?:\s+-\S+)*)\s+\/opt\/nexus\/(\S+)\s*$/m.exec(unit);
  if (!execStart)
    throw new Error('systemd/nexus-agent.service: no ExecStart=<node> [flags] /opt/nexus/<module>');
  const nodeArgs = nodeFlags(execStart[2]!);
  // A checkout from before the bundle (an older --base) runs its modules as they are.
  const bundled = path.join(root, execStart[3]!);
  const entry = fs.existsSync(bundled) ? bundled : path.join(root, 'agent/dist/main.js');
  return { env, nodeArgs, entry };
}

/** node's flags from a line of words, as a shell splits them ('' for none). */
export function nodeFlags(words: string): string[] {
  return words.split(/\s+/).filter(Boolean);
}
