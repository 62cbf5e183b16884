import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * mDNS/DNS-SD discovery (issue 17) finding real services: this host's loopback carries no multicast,
 * so the test makes a network namespace of its own (loopback up, multicast on, a route for
 * 224.0.0.0/4) and runs a publisher and the agent's compiled discover() inside it. Needs root and
 * `ip netns`; skips with the reason otherwise.
 */

const RUNNER = fileURLToPath(new URL('../fixtures/mdns-discover-run.mjs', import.meta.url));
const ns = `nexus-mdns-${randomBytes(3).toString('hex')}`;

function unavailable(): string | null {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `ip netns is not available: ${String(err)}`;
  }
}
const skip = unavailable();

describe.skipIf(skip !== null)(
  `mDNS discovery in a network namespace${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    beforeAll(() => {
      execFileSync('ip', ['netns', 'add', ns]);
      execFileSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
      execFileSync('ip', ['-n', ns, 'link', 'set', 'lo', 'multicast', 'on']);
      execFileSync('ip', ['-n', ns, 'route', 'add', '224.0.0.0/4', 'dev', 'lo']);
    });
    afterAll(() => {
      execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
    });

    it('finds ESPHome, Home Assistant and Wyoming services and streams each as it appears', () => {
      const out = execFileSync('ip', ['netns', 'exec', ns, process.execPath, RUNNER], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      const { found, streamed } = JSON.parse(out.trim().split('\n').at(-1)!) as {
        found: { kind: string; name: string; port: number; host: string }[];
        streamed: number;
      };
      expect(found).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            kind: 'ESPHome',
            name: 'kitchen-node',
            port: 6053,
            host: 'kitchen-node.local',
          }),
          expect.objectContaining({ kind: 'Home Assistant', name: 'Home', port: 8123 }),
          expect.objectContaining({ kind: 'Wyoming', name: 'piper', port: 10200 }),
        ]),
      );
      expect(streamed).toBe(found.length);
    });
  },
);
