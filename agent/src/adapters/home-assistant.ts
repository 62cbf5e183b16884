import type * as HawsLibrary from 'home-assistant-js-websocket';
import type {
  Connection,
  HaWebSocket,
  HassConfig,
  HassEntity,
  StateChangedEvent,
} from 'home-assistant-js-websocket';
import WebSocket from 'ws';
import { HttpError } from '../lib/http-error.js';

/**
 * Home Assistant's WebSocket and REST APIs. This is the only module that imports
 * home-assistant-js-websocket (HA's own client library, which keeps the command ids, the
 * subscriptions and their renewal after a reconnect); `ws` gives it a WebSocket in Node. main.ts
 * builds the adapter and the home-assistant feature decides when to connect and with what.
 * Failures leave as HomeAssistantError, an HttpError whose `kind` says what went wrong.
 */

export type HaEntityState = HassEntity;
export type HaConfig = HassConfig;
export type HaStateChangedEvent = StateChangedEvent;

/** Mirrors the entries of HA's `config/entity_registry/list`. */
export interface HaEntityRegistryEntry {
  entity_id: string;
  device_id: string | null;
  area_id: string | null;
  name: string | null;
  original_name?: string | null;
  platform: string;
  disabled_by: string | null;
  hidden_by: string | null;
  entity_category: string | null;
  /** Present since HA 2022.x; the key of the entity's name in its integration's translations. */
  translation_key?: string | null;
}

/**
 * Mirrors the extended entries of HA's `config/entity_registry/get_entries` (and `get`): the list
 * entry plus what `list` leaves out, the device classes and capability attributes.
 */
export interface HaEntityRegistryExtendedEntry extends HaEntityRegistryEntry {
  device_class?: string | null;
  original_device_class?: string | null;
  capabilities?: Record<string, unknown> | null;
}

/** Mirrors the entries of HA's `config/device_registry/list`. */
export interface HaDeviceRegistryEntry {
  id: string;
  name: string | null;
  name_by_user: string | null;
  area_id: string | null;
  manufacturer: string | null;
  model: string | null;
  disabled_by: string | null;
  /** The firmware version the integration reports. */
  sw_version?: string | null;
  configuration_url?: string | null;
  /** e.g. [["mac", "20:f8:3b:0a:1b:2c"]]. */
  connections?: Array<[string, string]>;
}

/** Mirrors the entries of HA's `config/area_registry/list`. */
export interface HaAreaRegistryEntry {
  area_id: string;
  name: string;
}

/** Mirrors an entry of REST `GET /api/logbook/<timestamp>` (older HA sends `message`, newer `state`). */
export interface HaLogbookEntry {
  when: string | number;
  name?: string;
  message?: string;
  state?: string;
  entity_id?: string | null;
  domain?: string | null;
  context_user_id?: string | null;
}

/** One row of REST `GET /api/history/period/<timestamp>`; minimal rows carry only state and last_changed. */
export interface HaHistoryRow {
  entity_id?: string;
  state: string;
  last_changed: string;
  last_updated?: string;
  attributes?: Record<string, unknown>;
}

export interface HaTarget {
  /** http(s) base address of Home Assistant, e.g. http://homeassistant.local:8123 */
  url: string;
  /** A long-lived access token. */
  token: string;
}

export type HaErrorKind =
  /** HA answered auth_invalid or 401: the token is wrong, expired or revoked. */
  | 'auth_invalid'
  /** Nothing answered, or the connection broke. */
  | 'unreachable'
  /** HA accepted the connection but did not answer in time. */
  | 'timeout'
  /** HA refused the command or call with its own error. */
  | 'rejected';

export class HomeAssistantError extends HttpError {
  constructor(
    readonly kind: HaErrorKind,
    message: string,
    /** HA's own error code (`not_found`, `service_validation_error`, …) when it sent one. */
    readonly haCode?: string,
    status?: HttpError['status'],
  ) {
    super(status ?? statusFor(kind), message, haCode ? { code: haCode } : undefined);
    this.name = 'HomeAssistantError';
  }
}

function statusFor(kind: HaErrorKind): HttpError['status'] {
  if (kind === 'timeout') return 504;
  if (kind === 'rejected') return 502;
  return 503;
}

export const TOKEN_REJECTED_MESSAGE = 'Home Assistant rejected the token';

export interface HaSession {
  readonly haVersion: string;
  readonly connected: boolean;
  /** Fired after every successful (re)authentication, once the subscriptions are renewed. */
  onReady(listener: () => void): void;
  onDisconnected(listener: () => void): void;
  /** A reconnect was refused with auth_invalid; the library stops retrying. */
  onAuthRejected(listener: () => void): void;
  subscribeStateChanged(listener: (event: HaStateChangedEvent) => void): Promise<void>;
  subscribeEvents(eventType: string, listener: () => void): Promise<void>;
  getStates(): Promise<HaEntityState[]>;
  getConfig(): Promise<HaConfig>;
  /** `get_services`: domain → service → its description (only the names are used). */
  getServices(): Promise<Record<string, Record<string, unknown>>>;
  listAreas(): Promise<HaAreaRegistryEntry[]>;
  listDevices(): Promise<HaDeviceRegistryEntry[]>;
  listEntities(): Promise<HaEntityRegistryEntry[]>;
  /**
   * The extended registry entries of these entities (`config/entity_registry/get_entries`); an id
   * HA does not know is left out.
   */
  getEntityEntries(entityIds: string[]): Promise<Map<string, HaEntityRegistryExtendedEntry>>;
  callService(
    domain: string,
    service: string,
    serviceData: Record<string, unknown>,
    target: { entity_id?: string | string[] },
  ): Promise<{ context: { id: string } | null }>;
  /** One `ping`/`pong` round trip in milliseconds. */
  ping(timeoutMs?: number): Promise<number>;
  /** Drops the socket and lets the library reconnect (used when pings stop coming back). */
  forceReconnect(): void;
  close(): void;
}

export interface HomeAssistantAdapter {
  /** Opens and authenticates one WebSocket session; rejects with HomeAssistantError. */
  connect(target: HaTarget): Promise<HaSession>;
  logbook(target: HaTarget, query: { start: Date; end: Date; entity?: string }): Promise<HaLogbookEntry[]>;
  history(
    target: HaTarget,
    query: { start: Date; end: Date; entityIds: string[]; minimal?: boolean; noAttributes?: boolean },
  ): Promise<HaHistoryRow[][]>;
  /** REST `GET /api/config/automation/config/<id>`: the automation's stored config (404 when unknown). */
  automationConfig(target: HaTarget, id: string): Promise<Record<string, unknown>>;
  /** REST `POST /api/config/automation/config/<id>`: creates or replaces it; HA then reloads automations. */
  saveAutomationConfig(target: HaTarget, id: string, config: Record<string, unknown>): Promise<void>;
  /** REST `DELETE /api/config/automation/config/<id>` (an unknown id is HA's 400). */
  deleteAutomationConfig(target: HaTarget, id: string): Promise<void>;
}

export interface HomeAssistantAdapterOptions {
  /** How long opening a socket and the auth handshake may take. */
  connectTimeoutMs?: number;
  /** How long a command or REST call may take before it counts as a timeout. */
  requestTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** HA sends get_states for a large home as one message; allow it but not unbounded. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export function websocketUrl(baseUrl: string): string {
  const url = new URL('api/websocket', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

function apiUrl(baseUrl: string, path: string): URL {
  return new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

/** HA's version string is YYYY.M.patch; the library sends supported_features from 2022.9 on. */
function atLeastVersion(version: string, year: number, month: number): boolean {
  const [y, m] = version.split('.').map((p) => Number.parseInt(p, 10));
  if (y === undefined || m === undefined || Number.isNaN(y) || Number.isNaN(m)) return false;
  return y > year || (y === year && m >= month);
}

/** Socket and TLS error codes in words. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name not found',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted (self-signed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted (self-signed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host name',
};

/**
 * Why a connection failed, without the address: these messages become the connection's state,
 * which every signed-in user sees, and only admins see where Home Assistant is (spec: the browser
 * never holds its address). Node's own messages ("connect ECONNREFUSED 10.0.0.5:8123") name it.
 */
function describeSocketError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return NETWORK_ERRORS[code] ?? code;
  const status = /Unexpected server response: (\d+)/.exec(error instanceof Error ? error.message : '');
  return status ? `the server answered HTTP ${status[1]} instead of a WebSocket` : 'connection failed';
}

interface SocketOutcome {
  /** Why the last socket attempt failed, for messages; the library itself only sees error codes. */
  lastFailure: string | null;
}

/**
 * The library's createSocket hook: opens the socket with `ws`, does the auth handshake of HA's
 * WebSocket API, and resolves with the authenticated socket. It rejects with the library's error
 * codes, because the library's reconnect logic compares against them.
 */
type Haws = typeof HawsLibrary;
/**
 * The library loads with the first connection, not at start-up: a hub whose owner has not
 * connected Home Assistant does not carry it.
 */
let library: Promise<Haws> | undefined;
const loadLibrary = () => (library ??= import('home-assistant-js-websocket'));

function socketFactory(target: HaTarget, timeoutMs: number, outcome: SocketOutcome, haws: Haws) {
  const url = websocketUrl(target.url);
  return () =>
    new Promise<HaWebSocket>((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: MAX_MESSAGE_BYTES });
      let settled = false;
      const finish = (code: number | null, reason?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.off('message', onMessage);
        socket.off('close', onClose);
        if (code === null) {
          outcome.lastFailure = null;
          resolve(socket as unknown as HaWebSocket);
          return;
        }
        outcome.lastFailure = reason ?? outcome.lastFailure;
        socket.terminate();
        reject(code);
      };
      const timer = setTimeout(
        () => finish(haws.ERR_CANNOT_CONNECT, `no answer within ${Math.round(timeoutMs / 1000)} s`),
        timeoutMs,
      );
      const onMessage = (raw: WebSocket.RawData) => {
        let message: { type?: string; ha_version?: string; message?: string };
        try {
          message = JSON.parse(raw.toString());
        } catch {
          finish(haws.ERR_CANNOT_CONNECT, 'the server does not speak the Home Assistant WebSocket API');
          return;
        }
        if (message.type === 'auth_required') {
          socket.send(JSON.stringify({ type: 'auth', access_token: target.token }));
        } else if (message.type === 'auth_invalid') {
          finish(haws.ERR_INVALID_AUTH, message.message ?? 'auth_invalid');
        } else if (message.type === 'auth_ok') {
          const version = message.ha_version ?? 'unknown';
          (socket as unknown as HaWebSocket).haVersion = version;
          // Coalesced messages arrive as one JSON array; the library unpacks them.
          if (atLeastVersion(version, 2022, 9)) {
            socket.send(
              JSON.stringify({ type: 'supported_features', id: 1, features: { coalesce_messages: 1 } }),
            );
          }
          finish(null);
        }
      };
      const onClose = () =>
        finish(haws.ERR_CANNOT_CONNECT, outcome.lastFailure ?? 'the connection was closed');
      socket.on('message', onMessage);
      socket.on('close', onClose);
      // ws throws on an 'error' without a listener; every error is followed by 'close'.
      socket.on('error', (error) => {
        outcome.lastFailure = describeSocketError(error);
      });
    });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HomeAssistantError('timeout', `Home Assistant did not answer ${what} within ${ms / 1000} s`),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Turns what the library rejects with (error codes, HA's `{code, message}`) into a HomeAssistantError. */
function fromLibraryError(error: unknown, what: string, haws: Haws): HomeAssistantError {
  if (error instanceof HomeAssistantError) return error;
  if (error === haws.ERR_CONNECTION_LOST || error === haws.ERR_CANNOT_CONNECT) {
    return new HomeAssistantError('unreachable', `Lost the connection to Home Assistant during ${what}`);
  }
  if (error === haws.ERR_INVALID_AUTH) return new HomeAssistantError('auth_invalid', TOKEN_REJECTED_MESSAGE);
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; error?: { code?: unknown; message?: unknown } };
    const inner = e.error ?? e;
    if (inner.code === haws.ERR_CONNECTION_LOST) {
      return new HomeAssistantError('unreachable', `Lost the connection to Home Assistant during ${what}`);
    }
    if (typeof inner.message === 'string') {
      const code = typeof inner.code === 'string' ? inner.code : String(inner.code ?? 'unknown_error');
      return new HomeAssistantError('rejected', inner.message, code, rejectionStatus(code));
    }
  }
  return new HomeAssistantError('unreachable', `Home Assistant failed during ${what}`);
}

/** HA's own error codes, mapped to what they mean for the caller of the agent's API. */
function rejectionStatus(code: string): HttpError['status'] {
  switch (code) {
    case 'not_found':
      return 404;
    case 'invalid_format':
    case 'service_validation_error':
      return 400;
    case 'unauthorized':
      return 403;
    default:
      return 502;
  }
}

class LibrarySession implements HaSession {
  constructor(
    private readonly conn: Connection,
    private readonly requestTimeoutMs: number,
    private readonly haws: Haws,
  ) {}

  get haVersion() {
    return this.conn.haVersion;
  }
  get connected() {
    return this.conn.connected;
  }
  onReady(listener: () => void) {
    this.conn.addEventListener('ready', () => listener());
  }
  onDisconnected(listener: () => void) {
    this.conn.addEventListener('disconnected', () => listener());
  }
  onAuthRejected(listener: () => void) {
    this.conn.addEventListener('reconnect-error', (_conn, code) => {
      if (code === this.haws.ERR_INVALID_AUTH) listener();
    });
  }

  async subscribeStateChanged(listener: (event: HaStateChangedEvent) => void) {
    await this.command(
      this.conn.subscribeEvents<HaStateChangedEvent>(listener, 'state_changed'),
      'subscribe_events',
    );
  }
  async subscribeEvents(eventType: string, listener: () => void) {
    await this.command(
      this.conn.subscribeEvents(() => listener(), eventType),
      'subscribe_events',
    );
  }
  getStates() {
    return this.command(this.haws.getStates(this.conn), 'get_states');
  }
  getConfig() {
    return this.command(this.haws.getConfig(this.conn), 'get_config');
  }
  getServices() {
    return this.send<Record<string, Record<string, unknown>>>('get_services');
  }
  listAreas() {
    return this.send<HaAreaRegistryEntry[]>('config/area_registry/list');
  }
  listDevices() {
    return this.send<HaDeviceRegistryEntry[]>('config/device_registry/list');
  }
  listEntities() {
    return this.send<HaEntityRegistryEntry[]>('config/entity_registry/list');
  }
  async getEntityEntries(entityIds: string[]) {
    const found = new Map<string, HaEntityRegistryExtendedEntry>();
    if (!entityIds.length) return found;
    let answer: Record<string, HaEntityRegistryExtendedEntry | null>;
    try {
      answer = await this.send<Record<string, HaEntityRegistryExtendedEntry | null>>(
        'config/entity_registry/get_entries',
        { entity_ids: entityIds },
      );
    } catch (error) {
      // get_entries came with HA 2023.3; before it, one `get` per entity.
      if (!(error instanceof HomeAssistantError && error.haCode === 'unknown_command')) throw error;
      for (const entityId of entityIds) {
        try {
          found.set(
            entityId,
            await this.send<HaEntityRegistryExtendedEntry>('config/entity_registry/get', {
              entity_id: entityId,
            }),
          );
        } catch (err) {
          if (!(err instanceof HomeAssistantError && err.haCode === 'not_found')) throw err;
        }
      }
      return found;
    }
    for (const [entityId, entry] of Object.entries(answer ?? {})) if (entry) found.set(entityId, entry);
    return found;
  }
  async callService(
    domain: string,
    service: string,
    serviceData: Record<string, unknown>,
    target: { entity_id?: string | string[] },
  ) {
    const result = (await this.command(
      this.haws.callService(this.conn, domain, service, serviceData, target.entity_id ? target : undefined),
      `${domain}.${service}`,
    )) as { context?: { id: string } } | null;
    return { context: result?.context ?? null };
  }
  async ping(timeoutMs = this.requestTimeoutMs) {
    const started = performance.now();
    await withTimeout(
      this.guard(() => this.conn.ping(), 'ping'),
      timeoutMs,
      'a ping',
    );
    return performance.now() - started;
  }
  forceReconnect() {
    this.conn.reconnect(true);
  }
  close() {
    this.conn.close();
  }

  private send<T>(type: string, fields: Record<string, unknown> = {}) {
    return this.command(
      this.guard(() => this.conn.sendMessagePromise<T>({ ...fields, type }), type),
      type,
    );
  }
  /** The library throws synchronously while disconnected; make that a rejection. */
  private guard<T>(run: () => Promise<T>, what: string): Promise<T> {
    try {
      return run();
    } catch (error) {
      return Promise.reject(fromLibraryError(error, what, this.haws));
    }
  }
  private async command<T>(promise: Promise<T>, what: string): Promise<T> {
    try {
      return await withTimeout(promise, this.requestTimeoutMs, what);
    } catch (error) {
      throw fromLibraryError(error, what, this.haws);
    }
  }
}

export function createHomeAssistantAdapter(opts: HomeAssistantAdapterOptions = {}): HomeAssistantAdapter {
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  async function rest<T>(
    target: HaTarget,
    path: string,
    query: Record<string, string | undefined>,
    send?: { method: 'POST' | 'DELETE'; body?: unknown },
  ): Promise<T> {
    const url = apiUrl(target.url, path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, {
        method: send?.method ?? 'GET',
        headers: {
          authorization: `Bearer ${target.token}`,
          accept: 'application/json',
          ...(send?.body !== undefined && { 'content-type': 'application/json' }),
        },
        body: send?.body !== undefined ? JSON.stringify(send.body) : undefined,
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new HomeAssistantError(
          'timeout',
          `Home Assistant did not answer within ${requestTimeoutMs / 1000} s`,
        );
      }
      const cause = (error as { cause?: unknown }).cause;
      throw new HomeAssistantError(
        'unreachable',
        `Home Assistant is not reachable: ${describeSocketError(cause ?? error)}`,
      );
    }
    const text = await res.text();
    if (res.status === 401) throw new HomeAssistantError('auth_invalid', TOKEN_REJECTED_MESSAGE);
    if (!res.ok) {
      let message = text.trim() || res.statusText;
      try {
        const parsed = JSON.parse(text) as { message?: unknown };
        if (typeof parsed.message === 'string') message = parsed.message;
      } catch {
        // HA answers some errors as plain text
      }
      throw new HomeAssistantError('rejected', message, `http_${res.status}`, res.status === 404 ? 404 : 502);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new HomeAssistantError('rejected', 'Home Assistant sent an answer that is not JSON');
    }
  }

  return {
    async connect(target) {
      const haws = await loadLibrary();
      const outcome: SocketOutcome = { lastFailure: null };
      const createSocket = socketFactory(target, connectTimeoutMs, outcome, haws);
      try {
        const conn = await haws.createConnection({ createSocket, setupRetry: 0 });
        return new LibrarySession(conn, requestTimeoutMs, haws);
      } catch (error) {
        if (error === haws.ERR_INVALID_AUTH)
          throw new HomeAssistantError('auth_invalid', TOKEN_REJECTED_MESSAGE);
        throw new HomeAssistantError(
          'unreachable',
          `Home Assistant is not reachable${outcome.lastFailure ? ` (${outcome.lastFailure})` : ''}`,
        );
      }
    },

    logbook(target, query) {
      return rest<HaLogbookEntry[]>(target, `api/logbook/${query.start.toISOString()}`, {
        end_time: query.end.toISOString(),
        entity: query.entity,
      });
    },

    history(target, query) {
      return rest<HaHistoryRow[][]>(target, `api/history/period/${query.start.toISOString()}`, {
        end_time: query.end.toISOString(),
        filter_entity_id: query.entityIds.join(','),
        minimal_response: query.minimal ? '' : undefined,
        no_attributes: query.noAttributes ? '' : undefined,
      });
    },

    automationConfig(target, id) {
      return rest<Record<string, unknown>>(
        target,
        `api/config/automation/config/${encodeURIComponent(id)}`,
        {},
      );
    },

    async saveAutomationConfig(target, id, config) {
      await rest(
        target,
        `api/config/automation/config/${encodeURIComponent(id)}`,
        {},
        {
          method: 'POST',
          body: config,
        },
      );
    },

    async deleteAutomationConfig(target, id) {
      await rest(target, `api/config/automation/config/${encodeURIComponent(id)}`, {}, { method: 'DELETE' });
    },
  };
}
