import {
  haHealthSchema,
  healthSchema,
  liveServerMessageSchema,
  llmPipelineStatusSchema,
  nexusStatusSchema,
  notificationListSchema,
  satelliteListSchema,
  subscriptionStatusSchema,
  systemUptimeSchema,
  vpnStatusSchema,
} from '@nexus/agent/contract';
import { describeShapesAgainstSchemas, type ShapeCase } from '@/lib/answer-shape.testing';
import { liveServerMessageShape } from '@/lib/live';
import { haHealthShape } from './ha-patterns';
import { healthShape } from './health';
import { llmPipelineStatusShape } from './llm-status';
import { nexusStatusShape, systemUptimeShape } from './metrics';
import { notificationListShape } from './notification-list';
import { satelliteListShape } from './satellite-list';
import { subscriptionStatusShape } from './subscription-status';
import { vpnStatusShape } from './vpn-status';

// The console's frame and the dashboard parse these answers with small shapes instead of zod, so
// that the first figures do not wait for zod (issue 26): each must agree with its contract schema,
// accepting the same answers, refusing the same, keeping the same keys (and dropping any other).

const nexus = {
  status: 'online',
  systemLoad: 12.5,
  memoryUsage: 40,
  networkStatus: 'connected',
  hostname: 'nexus',
  cpuTemperature: null,
  loadAverage: [0.1, 0.2, 0.3],
  uptime: 3600,
  warnings: [],
  sampledAt: 1_700_000_000_000,
};

const provider = { name: 'ollama', status: 'online', responseTime: 12, error: null };
const llm = {
  status: 'running',
  pipelineType: 'local',
  activeModels: 1,
  totalRequests: 3,
  models: [{ name: 'llama3', status: 'running', provider: 'ollama', sizeBytes: null }],
  providers: [provider],
  checkedAt: 1,
};

const controls = {
  volume: { value: 50 },
  mute: { value: null },
  wakeWord: { value: 'ok nexus', options: ['ok nexus'] },
  led: null,
  restart: true,
  announce: false,
};
const satellite = {
  id: 3,
  source: 'wyoming',
  name: 'Kitchen',
  status: 'online',
  statusReason: null,
  signalStrength: -55,
  activeWakeWord: null,
  lastSeen: '2026-01-01T00:00:00.000Z',
  room: null,
  ipAddress: '127.0.0.2',
  firmwareVersion: null,
  model: null,
  manufacturer: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  controls,
  homeAssistant: null,
  wyoming: {
    host: '127.0.0.2',
    port: 10700,
    connection: 'connected',
    error: null,
    nextRetryAt: null,
    streaming: false,
    wakeWords: [],
  },
};

const limits = {
  aiMessages: 100,
  aiModels: ['local', 'cloud'],
  maxModels: 'unlimited',
  parallelProcessing: false,
  homeAssistantEntities: 50,
  vpnAccess: true,
};
const subscription = {
  plan: 'pro',
  status: 'trialing',
  trialEndDate: '2026-02-01T00:00:00.000Z',
  usage: { aiMessages: 4, remainingMessages: 'unlimited' },
  limits,
  periodStart: '2026-01-01T00:00:00.000Z',
  hubId: 'hub-1',
  licence: null,
  warnings: [{ limit: 'aiMessages', used: 90, allowed: 100, upgradeTo: 'pro' }],
  storeUrl: null,
};
const licence = { lid: 'l1', plan: 'max', expiresAt: 'x', graceEndsAt: null, inGrace: false };

const peer = {
  publicKey: 'k',
  endpoint: null,
  allowedIps: ['10.0.0.2/32'],
  latestHandshake: null,
  rxBytes: 0,
  txBytes: 0,
  connected: false,
};
const tailscale = {
  backendState: 'Running',
  hostName: 'nexus',
  tailscaleIps: ['100.64.0.1'],
  tailnet: null,
  peers: [{ hostName: 'phone', dnsName: null, tailscaleIps: [], online: true, exitNode: false }],
};
const vpn = {
  status: 'connected',
  provider: 'wireguard',
  latency: null,
  failover: { activeProvider: 'wireguard', backupProvider: 'none' },
  wireguard: [{ name: 'wg0', listenPort: 51820, peers: [peer] }],
  tailscale: null,
  checkedAt: 1,
};

const notification = {
  id: 1,
  level: 'warning',
  category: 'containers',
  title: 'A container stopped',
  body: null,
  link: '/nexus-docker',
  broadcast: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  readAt: null,
  deliveries: [
    {
      channel: 'email',
      status: 'failed',
      attempts: 2,
      lastError: 'refused',
      nextAttemptAt: null,
      sentAt: null,
    },
  ],
};

const cases: ShapeCase[] = [
  {
    name: 'nexusStatus',
    shape: nexusStatusShape,
    schema: nexusStatusSchema,
    samples: [
      nexus,
      { ...nexus, cpuTemperature: 48.5, warnings: ['Memory nearly full'], extra: 'dropped' },
      { ...nexus, status: 'offline' },
      { ...nexus, systemLoad: '12' },
      { ...nexus, systemLoad: null },
      { ...nexus, loadAverage: [0.1, 0.2] },
      { ...nexus, loadAverage: [0.1, 0.2, 0.3, 0.4] },
      { ...nexus, loadAverage: [0.1, '0.2', 0.3] },
      { ...nexus, warnings: [1] },
      { ...nexus, hostname: undefined },
      null,
      [],
    ],
  },
  {
    name: 'systemUptime',
    shape: systemUptimeShape,
    schema: systemUptimeSchema,
    samples: [{ uptime: 5, bootTime: 'x' }, { uptime: 5 }, { uptime: '5', bootTime: 'x' }, 'up'],
  },
  {
    name: 'llmPipelineStatus',
    shape: llmPipelineStatusShape,
    schema: llmPipelineStatusSchema,
    samples: [
      llm,
      { ...llm, providers: [{ ...provider, activeRequests: 1, servedRequests: 9, secret: 'x' }] },
      { ...llm, providers: [{ ...provider, activeRequests: '1' }] },
      { ...llm, providers: [{ ...provider, error: undefined }] },
      { ...llm, pipelineType: 'edge' },
      { ...llm, models: [{ name: 'm', status: 'loading', provider: 'p', sizeBytes: 1 }] },
      { ...llm, models: {} },
      { ...llm, checkedAt: undefined },
    ],
  },
  {
    name: 'haHealth',
    shape: haHealthShape,
    schema: haHealthSchema,
    samples: [
      { status: 'online', connectionHealth: 'healthy', devicesCount: 2, entitiesCount: 9, responseTime: 40 },
      {
        status: 'not_configured',
        connectionHealth: 'not_configured',
        devicesCount: 0,
        entitiesCount: 0,
        responseTime: null,
        token: 't',
      },
      { status: 'unknown', connectionHealth: 'healthy', devicesCount: 2, entitiesCount: 9, responseTime: 40 },
      { status: 'online', connectionHealth: 'healthy', devicesCount: 2, entitiesCount: 9 },
    ],
  },
  {
    name: 'health',
    shape: healthShape,
    schema: healthSchema,
    samples: [
      { status: 'ok', version: '1.2.3' },
      { status: 'ok', version: '1', uptime: 3 },
      { status: 'down', version: '1' },
      { status: 'ok' },
    ],
  },
  {
    name: 'satelliteList',
    shape: satelliteListShape,
    schema: satelliteListSchema,
    samples: [
      [],
      [satellite],
      [{ ...satellite, token: 'secret' }],
      [
        {
          ...satellite,
          wyoming: null,
          source: 'home-assistant',
          homeAssistant: { deviceId: 'd', satelliteEntityId: 'e' },
        },
      ],
      [{ ...satellite, controls: { ...controls, led: { on: true, brightness: 80, color: '#ffffff' } } }],
      [{ ...satellite, id: 1.5 }],
      [{ ...satellite, source: 'zigbee' }],
      [{ ...satellite, status: 'sleeping' }],
      [{ ...satellite, controls: { ...controls, restart: undefined } }],
      [{ ...satellite, wyoming: { ...satellite.wyoming, port: 'x' } }],
      [{ ...satellite, wyoming: { ...satellite.wyoming, connection: 'lost' } }],
      [satellite, { ...satellite, name: 4 }],
      satellite,
    ],
  },
  {
    name: 'subscriptionStatus',
    shape: subscriptionStatusShape,
    schema: subscriptionStatusSchema,
    samples: [
      subscription,
      { ...subscription, licence, hubSecret: 'x' },
      { ...subscription, licence: { ...licence, plan: 'enterprise' } },
      { ...subscription, plan: 'gold' },
      { ...subscription, usage: { aiMessages: -1, remainingMessages: 3 } },
      { ...subscription, usage: { aiMessages: 1.5, remainingMessages: 3 } },
      { ...subscription, usage: { aiMessages: 1, remainingMessages: 'lots' } },
      { ...subscription, limits: { ...limits, aiModels: ['quantum'] } },
      { ...subscription, warnings: [{ limit: 'vpnAccess', used: 1, allowed: 1, upgradeTo: 'max' }] },
      { ...subscription, storeUrl: undefined },
    ],
  },
  {
    name: 'vpnStatus',
    shape: vpnStatusShape,
    schema: vpnStatusSchema,
    samples: [
      vpn,
      { ...vpn, provider: 'tailscale', tailscale, privateKey: 'x' },
      { ...vpn, tailscale: { ...tailscale, exitNode: null } },
      { ...vpn, tailscale: { ...tailscale, exitNode: { hostName: null, tailscaleIps: [], online: true } } },
      { ...vpn, tailscale: { ...tailscale, exitNode: { hostName: null, online: true } } },
      { ...vpn, provider: 'openvpn' },
      { ...vpn, failover: { activeProvider: 'wireguard' } },
      { ...vpn, wireguard: [{ name: 'wg0', listenPort: null, peers: [{ ...peer, connected: 'yes' }] }] },
      { ...vpn, latency: '4' },
    ],
  },
  {
    name: 'notificationList',
    shape: notificationListShape,
    schema: notificationListSchema,
    samples: [
      { notifications: [], unreadCount: 0 },
      {
        notifications: [notification, { ...notification, id: 2, deliveries: [] }],
        unreadCount: 1,
        more: true,
      },
      { notifications: [{ ...notification, level: 'fatal' }], unreadCount: 1 },
      { notifications: [{ ...notification, category: 'weather' }], unreadCount: 1 },
      {
        notifications: [{ ...notification, deliveries: [{ ...notification.deliveries[0], channel: 'sms' }] }],
        unreadCount: 1,
      },
      { notifications: [notification], unreadCount: -1 },
      { notifications: [notification] },
    ],
  },
  {
    name: 'liveServerMessage',
    shape: liveServerMessageShape,
    schema: liveServerMessageSchema,
    samples: [
      { type: 'event', topic: 'metrics', data: { cpu: 3 } },
      { type: 'event', topic: 'metrics' },
      { type: 'subscribed', topic: 'metrics', extra: 1 },
      { type: 'unsubscribed', topic: 'metrics' },
      { type: 'error', message: 'Unknown topic' },
      { type: 'error', topic: 'x', message: 'Not allowed' },
      { type: 'error', topic: 3, message: 'Not allowed' },
      { type: 'dropped', topic: 'metrics', count: 4 },
      { type: 'dropped', topic: 'metrics', count: 0 },
      { type: 'dropped', topic: 'metrics', count: 1.5 },
      { type: 'hello', topic: 'metrics' },
      { topic: 'metrics' },
      { type: 'toString', topic: 'metrics' },
      'event',
      null,
    ],
  },
];

describeShapesAgainstSchemas('frame and dashboard answer shapes', cases);
