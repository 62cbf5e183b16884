import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningAgent {
  url: string;
  port: number;
  /** The same agent over HTTPS (issue 21): https://127.0.0.1:<httpsPort>, with the hub's own certificate. */
  httpsUrl: string;
  httpsPort: number;
  dataDir: string;
  process: ChildProcess;
  /** Every log line the agent printed so far (JSON strings), for assertions about logging. */
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the real, compiled agent on a fresh temporary data directory and a free port, and
 * resolves once it listens. Tests speak HTTP/WebSocket to it like a browser would.
 */
export async function startAgent(
  // entry: the module to run, relative to the repository (the appliance's bundle, agent/dist/bundle/main.js);
  // nodeArgs: node's own flags before it.
  opts: { env?: Record<string, string>; dataDir?: string; entry?: string; nodeArgs?: string[] } = {},
): Promise<RunningAgent> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-test-'));
  const entry = path.resolve(repoRoot, opts.entry ?? 'agent/dist/main.js');
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), entry], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      PORT: '0',
      HTTPS_PORT: '0',
      HOST: '127.0.0.1',
      NEXUS_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = readline.createInterface({ input: child.stdout! });

  const { port, httpsPort } = await new Promise<{ port: number; httpsPort: number }>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`agent exited with ${code} before listening\n${stderr}\n${logs.join('\n')}`));
    child.once('exit', onExit);
    // Both ports, in whichever order they are announced.
    let port: number | undefined;
    let httpsPort: number | undefined;
    lines.on('line', (line) => {
      logs.push(line);
      try {
        const entry = JSON.parse(line) as { port?: number; httpsPort?: number; msg?: string };
        if (!entry.msg?.includes('listening')) return;
        if (typeof entry.port === 'number') port = entry.port;
        if (typeof entry.httpsPort === 'number') httpsPort = entry.httpsPort;
        if (port !== undefined && httpsPort !== undefined) {
          child.off('exit', onExit);
          resolve({ port, httpsPort });
        }
      } catch {
        // not JSON: keep it in logs only
      }
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    httpsUrl: `https://127.0.0.1:${httpsPort}`,
    httpsPort,
    dataDir,
    process: child,
    logs,
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        // A process ended by a signal (kill -9) has no exit code, only a signalCode.
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}
