import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import {
  catalogFileSchema,
  DEFAULT_PROBE_TIMEOUT_SECONDS,
  type CatalogApp,
  type CatalogAppView,
  type CatalogProbe,
  type Deployment,
  type ProbeResult,
  type StackTarget,
} from '../../contract/docker.js';
import { HttpError } from '../../lib/http-error.js';
import type { Actor, Emit, StacksService } from './stacks.service.js';

/** One probe attempt gives up after this; the probe loop retries until the app's timeout. */
const ATTEMPT_TIMEOUT_MS = 3_000;
const RETRY_INTERVAL_MS = 1_000;
/** The hub's services publish their ports on the hub itself, where the agent runs. */
const PROBE_HOST = '127.0.0.1';

export const CATALOG_FILE = 'catalog.json';

async function probeHttp(port: number, pathname: string, okStatus: number[] | undefined): Promise<string> {
  const res = await fetch(`http://${PROBE_HOST}:${port}${pathname}`, {
    signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    redirect: 'manual',
  });
  await res.body?.cancel();
  const ok = okStatus ? okStatus.includes(res.status) : res.status >= 200 && res.status < 300;
  if (!ok) throw new Error(`answered HTTP ${res.status}`);
  return `answered HTTP ${res.status}`;
}

/**
 * A Wyoming service (rhasspy/wyoming protocol) answers a `describe` event with an `info` event.
 * Each event is a JSON header line, optionally followed by data_length bytes of JSON data and
 * payload_length bytes of payload; the header's type is all the probe needs.
 */
function probeWyoming(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: PROBE_HOST, port });
    let buffered = '';
    const done = (err: Error | null, message?: string) => {
      socket.destroy();
      if (err) reject(err);
      else resolve(message!);
    };
    socket.setTimeout(ATTEMPT_TIMEOUT_MS, () => done(new Error('did not answer describe in time')));
    socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'describe', data: {} })}\n`));
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) {
        if (buffered.length > 64 * 1024) done(new Error('sent a header line longer than 64 KB'));
        return;
      }
      try {
        const header = JSON.parse(buffered.slice(0, newline)) as { type?: string };
        if (header.type === 'info') done(null, 'answered describe with info');
        else done(new Error(`answered describe with ${header.type ?? 'an event without a type'}`));
      } catch {
        done(new Error('answered with something that is not a Wyoming event'));
      }
    });
    socket.on('error', (err) => done(err));
    socket.on('close', () => done(new Error('closed the connection without answering')));
  });
}

function probeTcp(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: PROBE_HOST, port });
    socket.setTimeout(ATTEMPT_TIMEOUT_MS, () => {
      socket.destroy();
      reject(new Error('did not accept the connection in time'));
    });
    socket.on('connect', () => {
      socket.destroy();
      resolve('accepted a connection');
    });
    socket.on('error', reject);
  });
}

export async function probeOnce(probe: CatalogProbe, port: number): Promise<ProbeResult> {
  const started = performance.now();
  const target =
    probe.type === 'http'
      ? `http://${PROBE_HOST}:${port}${probe.path}`
      : `${probe.type}://${PROBE_HOST}:${port}`;
  try {
    const message =
      probe.type === 'http'
        ? await probeHttp(port, probe.path, probe.okStatus)
        : probe.type === 'wyoming'
          ? await probeWyoming(port)
          : await probeTcp(port);
    return { ok: true, message, target, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const reason = e.cause?.code ?? (e.name === 'TimeoutError' ? 'timed out' : e.message);
    return { ok: false, message: reason, target, ms: Math.round(performance.now() - started) };
  }
}

/** Checks form settings against the app's fields; the answer is every variable the template needs. */
export function resolveSettings(app: CatalogApp, settings: Record<string, string>): Record<string, string> {
  const known = new Set(app.fields.map((f) => f.key));
  for (const key of Object.keys(settings)) {
    if (!known.has(key)) throw new HttpError(400, `${app.name} has no setting ${key}`);
  }
  const values: Record<string, string> = {};
  for (const field of app.fields) {
    const value = (settings[field.key] ?? field.default).trim();
    const fail = (why: string) => new HttpError(400, `${field.label}: ${why}`, { field: field.key });
    if (field.required && value === '') throw fail('this setting is required');
    if (field.type === 'port' && !(/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
      throw fail('a port is a number from 1 to 65535');
    }
    if (field.type === 'number' && value !== '' && !/^-?\d+(\.\d+)?$/.test(value))
      throw fail('enter a number');
    if (field.type === 'boolean' && !['true', 'false'].includes(value)) throw fail('true or false');
    if (field.type === 'select' && !field.options?.some((o) => o.value === value)) {
      throw fail(`choose one of ${field.options?.map((o) => o.value).join(', ')}`);
    }
    values[field.key] = value;
  }
  return values;
}

export function createCatalogService(deps: { dir: string; stacks: StacksService }) {
  const { dir, stacks } = deps;

  async function load(): Promise<{ app: CatalogApp; compose: string }[]> {
    let raw: string;
    try {
      raw = await fs.readFile(path.join(dir, CATALOG_FILE), 'utf8');
    } catch {
      throw new HttpError(404, `The app catalog is missing: ${path.join(dir, CATALOG_FILE)}`);
    }
    const apps = catalogFileSchema.parse(JSON.parse(raw)).apps;
    return Promise.all(
      apps.map(async (app) => ({ app, compose: await fs.readFile(path.join(dir, app.template), 'utf8') })),
    );
  }

  async function find(id: string) {
    const entry = (await load()).find((e) => e.app.id === id);
    if (!entry) throw new HttpError(404, `No app ${id} in the catalog`);
    return entry;
  }

  async function portOf(app: CatalogApp, settings: Record<string, string>): Promise<number> {
    return Number(
      settings[app.probe.portVariable] ?? app.fields.find((f) => f.key === app.probe.portVariable)?.default,
    );
  }

  /** Tries the app's health probe until it answers or the app's timeout passes. */
  async function waitHealthy(app: CatalogApp, port: number, emit: Emit): Promise<ProbeResult> {
    const deadline = Date.now() + (app.probeTimeoutSeconds ?? DEFAULT_PROBE_TIMEOUT_SECONDS) * 1000;
    emit({ type: 'step', message: `Waiting for ${app.name} to answer on port ${port}` });
    for (;;) {
      const result = await probeOnce(app.probe, port);
      if (result.ok || Date.now() > deadline) {
        emit({
          type: 'health',
          service: app.id,
          ok: result.ok,
          message: `${result.target} ${result.message}`,
        });
        return result;
      }
      await new Promise((r) => setTimeout(r, RETRY_INTERVAL_MS));
    }
  }

  return {
    async list(): Promise<CatalogAppView[]> {
      const [entries, deployed] = await Promise.all([load(), stacks.list().catch(() => [])]);
      return entries.map(({ app, compose }) => ({
        ...app,
        compose,
        deployed: deployed.find((s) => s.name === app.stack) ?? null,
      }));
    },

    /** Checks everything that can be checked before anything is created (400/404/409/502). */
    /** `target` applies to a first deploy; a deployed app is redeployed where it runs. */
    async preflight(id: string, settings: Record<string, string>, target: StackTarget = 'hub') {
      const { app, compose } = await find(id);
      const variables = resolveSettings(app, settings);
      const stored = stacks.storedStack(app.stack);
      if (!stored) await stacks.preflightDeploy({ name: app.stack, compose, variables, target });
      else await stacks.preflightRedeploy(app.stack, { compose, variables });
      return { app, compose, variables, redeploy: Boolean(stored), target: stored?.target ?? target };
    },

    /** Deploys an app (or applies new settings to a deployed one), then probes its health. */
    async deploy(
      id: string,
      settings: Record<string, string>,
      actor: Actor,
      emit: Emit,
      requestedTarget: StackTarget = 'hub',
    ): Promise<{ deployment: Deployment; probe: ProbeResult }> {
      const { app, compose, variables, redeploy, target } = await this.preflight(
        id,
        settings,
        requestedTarget,
      );
      const deployment = redeploy
        ? await stacks.redeploy(app.stack, { pull: false, compose, variables }, actor, emit)
        : await stacks.deploy(
            { name: app.stack, compose, variables, catalogApp: app.id, target },
            actor,
            emit,
          );
      // On the fleet the app runs on whichever node the swarm chose: this hub's loopback may not reach it.
      const probe =
        target === 'fleet'
          ? {
              ok: true,
              message: 'not probed: the app runs on the fleet; its tasks show where and in which state',
              target: 'fleet',
              ms: 0,
            }
          : await waitHealthy(app, await portOf(app, variables), emit);
      return { deployment, probe };
    },

    async probe(id: string): Promise<ProbeResult> {
      const { app } = await find(id);
      const stored = stacks.storedStack(app.stack);
      const variables = stored ? stacks.variablesOf(stored) : {};
      return probeOnce(app.probe, await portOf(app, variables));
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
