import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import type { Env } from './env.js';
import type { Db } from './db/client.js';
import type { Logger } from './lib/logger.js';
import type { SecretBox } from './lib/secret-box.js';
import { HttpError, conflict } from './lib/http-error.js';
import { APP_VERSION } from './lib/version.js';
import { inBackground } from './lib/background.js';
import type { AppEnv } from './http/app-env.js';
import { appBodyLimit } from './http/body-limits.js';
import { compressJsonAnswers } from './http/compression.js';
import { readCookie } from './http/cookies.js';
import { apiNotFound, errorHandler } from './http/error-handler.js';
import { mountWebApp } from './http/static.js';
import { securityHeaders } from './http/security-headers.js';
import { redactPath } from './http/redact-path.js';
import { hostCheckFor, refuseForeignHosts, type HostCheck } from './http/host-check.js';
import { createLogSampler, requestLogKey } from './http/log-sampler.js';
import { trustedProxyList } from './http/request-info.js';
import { healthRoutes } from './features/health/health.routes.js';
import {
  SESSION_COOKIE,
  createSessionService,
  type SessionService,
} from './features/auth/session.service.js';
import { createAuthService, toPublicUser } from './features/auth/auth.service.js';
import { authRoutes, clientInfo, setSessionCookie } from './features/auth/auth.routes.js';
import { userRoutes } from './features/auth/users.routes.js';
import { accountSecurityRoutes, userSecurityRoutes } from './features/auth/account-security.routes.js';
import { createAccountSecurityService } from './features/auth/account-security.service.js';
import { createAccountAdmin } from './features/auth/account-admin.js';
import { createRegistrationService } from './features/auth/registration.service.js';
import { inviteRoutes, registrationRoutes } from './features/auth/invites.routes.js';
import { isLocalAddress } from './lib/address-class.js';
import { clientAddress } from './http/request-info.js';
import type { AuthLimits } from './features/auth/login-throttle.js';
import type { RouterRoute } from 'hono/types';
import type { Mailer } from './adapters/mailer.js';
import { createPasswordResetService } from './features/auth/password-reset.service.js';
import { passwordResetRoutes } from './features/auth/password-reset.routes.js';
import { createPasskeyService } from './features/auth/passkeys.service.js';
import { passkeyRoutes } from './features/auth/passkeys.routes.js';
import {
  createNotificationService,
  type NotificationService,
} from './features/notifications/notifications.service.js';
import { notificationRoutes } from './features/notifications/notifications.routes.js';
import { publishNotifications } from './features/notifications/notifications.live.js';
import { createNotificationDelivery } from './features/notifications/delivery.service.js';
import { docsRoutes } from './features/docs/docs.routes.js';
import { createSystemInfo, type SystemInfoAdapter } from './adapters/system-info.js';
import { createVpnAdapter, type VpnAdapter } from './adapters/vpn.js';
import { createOllamaClient } from './adapters/ollama.js';
import type { LogRing } from './lib/logger.js';
import { createLiveHub, type LiveHub } from './live/hub.js';
import { liveRoutes } from './live/live.routes.js';
import { createMetricsSampler, type MetricsSampler } from './features/metrics/metrics-sampler.js';
import { createMetricsFeature, type MetricsFeature } from './features/metrics/metrics.feature.js';
import { createHotReads } from './http/hot-reads.js';
import { nexusStatusRoutes, systemRoutes } from './features/metrics/metrics.routes.js';
import { createSettingsRepository } from './features/settings/settings.repository.js';
import { createUsageRepository } from './features/usage/usage.repository.js';
import { createAuditLog } from './features/audit/audit.service.js';
import { createAuditRepository } from './features/audit/audit.repository.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { startAuditRetention } from './features/audit/audit-retention.js';
import { auditRequestScope } from './features/audit/audit-scope.js';
import { createSatellitesRepository } from './features/satellites/satellites.repository.js';
import { createSatellitesService } from './features/satellites/satellites.service.js';
import { createHaSatelliteSource } from './features/satellites/ha-satellites.js';
import { satellitesRoutes } from './features/satellites/satellites.routes.js';
import { createWyomingSatelliteManager } from './features/satellites/wyoming-satellites.js';
import { createSubscriptionRepository } from './features/subscription/subscription.repository.js';
import { createSubscriptionService } from './features/subscription/subscription.service.js';
import { subscriptionRoutes } from './features/subscription/subscription.routes.js';
import { hubIdFrom } from './features/subscription/hub-id.js';
import { createLicencesRepository } from './features/subscription/licences.repository.js';
import { createLicenceService } from './features/subscription/licence.service.js';
import { ed25519PublicKey } from './features/subscription/licence-key.js';
import { VENDOR_LICENCE_PUBLIC_KEY_PEM } from './features/subscription/vendor-key.js';
import { createPlanLimits, settingsLedger } from './features/subscription/plan-limits.js';
import { createVpnService } from './features/vpn/vpn.service.js';
import { vpnRoutes } from './features/vpn/vpn.routes.js';
import { visitorRoutes } from './features/vpn/visitor.routes.js';
import { createWireguardAdapter, type WireguardAdapter } from './adapters/wireguard.js';
import { createVpnEventLog } from './features/vpn/vpn-events.js';
import { createWgServerService } from './features/vpn/wg-server.service.js';
import { createUplinksService } from './features/vpn/uplinks.service.js';
import { wireguardRoutes } from './features/vpn/wireguard.routes.js';
import { createNetworkService } from './features/network/network.service.js';
import { createNetworkTools } from './features/network/network-tools.service.js';
import { networkRoutes } from './features/network/network.routes.js';
import { createLlmStatusService, type LlmStatusProvider } from './features/llm-status/llm-status.service.js';
import { createLlmFeature } from './features/llm/llm.feature.js';
import { swarmOllamaSource } from './features/llm/fleet-endpoints.js';
import { llmStatusRoutes } from './features/llm-status/llm-status.routes.js';
import { haPatternsRoutes, type HaHealthProvider } from './features/ha-patterns/ha-patterns.routes.js';
import { createHomeAssistantAdapter, type HomeAssistantAdapter } from './adapters/home-assistant.js';
import { startHomeAssistant } from './features/home-assistant/home-assistant.service.js';
import {
  homeAssistantRoutes,
  homeAssistantSettingsRoutes,
} from './features/home-assistant/home-assistant.routes.js';
import { createDiagnosticsService } from './features/diagnostics/diagnostics.service.js';
import { diagnosticsRoutes } from './features/diagnostics/diagnostics.routes.js';
import { createDockerAdapter, type DockerAdapter } from './adapters/docker.js';
import { createDockerFeature } from './features/docker/docker.feature.js';
import { createHostFiles } from './adapters/host-files.js';
import { createNetworkProbe } from './adapters/network-probe.js';
import { createNexusPeerClient } from './adapters/nexus-peer.js';
import { createJetsonService } from './features/jetson/jetson.service.js';
import { jetsonRoutes } from './features/jetson/jetson.routes.js';
import { createSetupService } from './features/setup/setup.service.js';
import { setupRoutes } from './features/setup/setup.routes.js';
import { createNexusManagementRepository } from './features/nexus-management/nexus-management.repository.js';
import {
  createNexusManagementService,
  type BoardSummary,
} from './features/nexus-management/nexus-management.service.js';
import { nexusManagementRoutes } from './features/nexus-management/nexus-management.routes.js';
import { configFacts, databaseFacts } from './features/nexus-management/agent-facts.js';
import { createFlowsFeature } from './features/flows/flows.feature.js';
import { chatAsLlmPort, planLimitedHomeAssistant } from './features/flows/port-adapters.js';
import { createHttpRequester } from './adapters/http-request.js';
import { createOutboundGuard } from './adapters/outbound-guard.js';
import { createOutboundSettings } from './features/settings/outbound-settings.js';
import { outboundSettingsRoutes } from './features/settings/outbound-settings.routes.js';
import { createSpeechRepository } from './features/speech/speech.repository.js';
import { createSpeechService } from './features/speech/speech.service.js';
import { speechRoutes } from './features/speech/speech.routes.js';
import { createWakeWordsRepository } from './features/wake-words/wake-words.repository.js';
import { createWakeWordsService } from './features/wake-words/wake-words.service.js';
import { crowdsourceRoutes, wakeWordsRoutes } from './features/wake-words/wake-words.routes.js';
import { createPhonesService } from './features/auth/phones.service.js';
import { phoneRoutes } from './features/auth/phones.routes.js';
import { countPasskeys } from './features/auth/passkey-count.js';
import { createOnboardingService } from './features/onboarding/onboarding.service.js';
import { onboardingRoutes } from './features/onboarding/onboarding.routes.js';
import { onboardingFacts } from './features/onboarding/onboarding-facts.js';
import { createBackupsService, sqliteOf } from './features/backups/backups.service.js';
import { backupsRoutes, receiveRestore } from './features/backups/backups.routes.js';
import { SCRYPT_TEST_MIN_N } from './features/backups/backup-format.js';
import { createAlerts } from './features/alerts/alerts.js';
import {
  createAutomationMarks,
  createAutomationsService,
} from './features/home-assistant/automations.service.js';
import { createDevicesService } from './features/home-assistant/devices.service.js';
import { haAutomationRoutes } from './features/home-assistant/automations.routes.js';
import { createMemberAccessStore } from './features/home-assistant/member-access.js';
import {
  createIntegrationsService,
  type NtfyChannelStatus,
} from './features/integrations/integrations.service.js';
import { integrationsRoutes } from './features/integrations/integrations.routes.js';
import type { TlsService } from './features/tls/tls.service.js';
import { caCertificateRoute, tlsRoutes } from './features/tls/tls.routes.js';
import { redirectToHttps } from './http/https-redirect.js';
import { startAnalytics } from './features/analytics/analytics.feature.js';
import { createFleetFeature } from './features/fleet/index.js';

/** Everything the routes need from the outside world; main.ts builds the real ones, tests their own. */
export interface AppDeps {
  env: Env;
  db: Db;
  log: Logger;
  secrets: SecretBox;
  sessions?: SessionService;
  /** Sign-in and sign-up rate limits; the defaults are in features/auth/login-throttle.ts. */
  authLimits?: Partial<AuthLimits>;
  /** Absolute path of the built web app; omit to serve the API only. */
  webDist?: string;
  /** Outgoing e-mail (password-reset links); null or omitted when SMTP is not configured. */
  mailer?: Mailer | null;
  /** notify() for every feature; created here when main.ts does not pass one. */
  notifications?: NotificationService;
  /** The host's figures. main.ts passes a started sampler; otherwise one is made that starts on first use. */
  system?: { info: SystemInfoAdapter; sampler: MetricsSampler };
  /** The browsers' live channel; features publish on it with `live.publish(topic, data)`. */
  live?: LiveHub;
  /** WireGuard and Tailscale as their tools report them. */
  vpn?: VpnAdapter;
  /** The hub's own WireGuard interfaces (issue 17): `wg`, `ip`, `wireguard-go`. */
  wireguard?: WireguardAdapter;
  /** The LLM providers the pipeline status probes; by default the LLM feature's (the hub's Ollama at OLLAMA_URL and those admins add). */
  llmProviders?: () => LlmStatusProvider[];
  /** Home Assistant's health; the Home Assistant feature supplies it. Without it: not_configured. */
  haHealth?: HaHealthProvider;
  /** Home Assistant's WebSocket and REST APIs; the feature connects with the stored URL and token. */
  homeAssistant?: HomeAssistantAdapter;
  /** The agent's recent log lines, for the diagnostics bundle. */
  logRing?: LogRing;
  /** The Docker Engine API; by default the one at DOCKER_HOST. */
  docker?: DockerAdapter;
  /** Where the app catalog (catalog.json and its compose templates) lives; by default docker/. */
  catalogDir?: string;
  /** Which Host headers name this hub (DNS rebinding); the API and its hot reads share it. */
  hostCheck?: HostCheck;
  /** Told what to stop when the agent shuts down (connections features keep open, e.g. to satellites). */
  onShutdown?: (stop: () => void) => void;
  /** Ends the process for its supervisor to start again (a restore); main.ts exits with 75. */
  restart?: () => void;
  /** The hub's CA and HTTPS certificate (issue 21), started by main.ts before the HTTPS server. */
  tls: TlsService;
  now?: () => number;
}

/** When this agent process started (Nexus management shows it). */
const AGENT_STARTED_AT = new Date();

/** Request ids: unique per process start, cheap to make (a UUID per request showed up in profiles). */
const REQUEST_ID_PREFIX = randomBytes(4).toString('hex');
let requestCounter = 0;
const nextRequestId = () => `${REQUEST_ID_PREFIX}-${(++requestCounter).toString(36)}`;

function apiRoutes(
  deps: Required<Pick<AppDeps, 'sessions' | 'notifications' | 'system' | 'live'>> &
    AppDeps & {
      routeTable: () => readonly RouterRoute[];
      metrics: MetricsFeature;
    },
) {
  // Security events from every feature (issue 18): sign-ins, 2FA, passkeys, roles, tokens, secrets.
  const audit = createAuditLog({ db: deps.db, log: deps.log, now: deps.now });
  // Events that notify (issue 19): the sign-ins, the engine and flow runs are watched from here on.
  const alerts = createAlerts({
    db: deps.db,
    log: deps.log,
    notify: deps.notifications.notify,
    settings: createSettingsRepository(deps.db, deps.now),
    now: deps.now,
  });
  const sessions = alerts.watchSignIns(deps.sessions);
  const auditRows = createAuditRepository(deps.db, deps.now);
  deps.onShutdown?.(startAuditRetention(auditRows, deps.log));
  const registration = createRegistrationService({
    db: deps.db,
    settings: createSettingsRepository(deps.db, deps.now),
    defaultMode: deps.env.NEXUS_REGISTRATION,
    log: deps.log,
    audit,
    now: deps.now,
  });
  const auth = createAuthService({
    db: deps.db,
    sessions,
    secrets: deps.secrets,
    log: deps.log,
    limits: deps.authLimits,
    registration,
    audit,
    now: deps.now,
  });
  const passkeys = createPasskeyService({
    db: deps.db,
    sessions,
    throttles: auth.throttles,
    audit,
    log: deps.log,
    now: deps.now,
  });
  // Re-authentication, /2fa-test, recovery codes, session lists, disabling accounts (issue 18).
  const accountSecurity = createAccountSecurityService({
    db: deps.db,
    sessions: deps.sessions,
    secrets: deps.secrets,
    auth,
    audit,
    now: deps.now,
  });
  const accountAdmin = createAccountAdmin(deps.db, deps.now);
  const passwordResets = createPasswordResetService({
    db: deps.db,
    log: deps.log,
    auth,
    mailer: deps.mailer ?? null,
    publicUrl: deps.env.NEXUS_PUBLIC_URL ?? null,
    notify: deps.notifications.notify,
    audit,
    now: deps.now,
  });
  const settings = createSettingsRepository(deps.db, deps.now);
  const outboundSettings = createOutboundSettings(settings);
  const haAdapter = deps.homeAssistant ?? createHomeAssistantAdapter();
  const homeAssistant = startHomeAssistant({ ...deps, adapter: haAdapter, settings });
  const usage = createUsageRepository(deps.db, deps.now);
  const metrics = deps.metrics.service;
  const satelliteRows = createSatellitesRepository(deps.db, deps.now);
  const satellites = createSatellitesService({
    repository: satelliteRows,
    audit,
    homeAssistant: createHaSatelliteSource({ connection: homeAssistant.connection, log: deps.log }),
    now: deps.now,
    onChange: (list) => deps.live.publish('satellites', list),
    wyoming: createWyomingSatelliteManager({
      repository: satelliteRows,
      log: deps.log.child({ feature: 'satellites' }),
      // Flows and speech are made below; a satellite's events reach them only once it has connected.
      flows: {
        voiceFlowForSatellite: (id) => flows.service.voiceFlowForSatellite(id),
        startStreamedVoiceRun: (satellite, flowId, hooks) =>
          flows.service.startStreamedVoiceRun(satellite, flowId, hooks),
      },
      synthesize: async (text) => (await speech.synthesize(text, {})).wav,
      timing: { retryMs: deps.env.NEXUS_WYOMING_RETRY_MS },
      now: deps.now,
    }),
  });
  deps.onShutdown?.(() => satellites.stop());
  const hubId = hubIdFrom(createSettingsRepository(deps.db, deps.now));
  const licenceRows = createLicencesRepository(deps.db);
  const subscription = createSubscriptionService({
    repository: createSubscriptionRepository(deps.db),
    // The plan's monthly AI messages are those cloud models answered; the hub's own never count.
    usage: { messagesInMonth: (at) => usage.cloudMessagesInMonth(at) },
    hubId,
    licences: licenceRows,
    storeUrl: deps.env.NEXUS_LICENCE_STORE_URL,
    warnings: (plan) => planLimits.warnings(plan),
    now: deps.now,
  });
  // Every plan limit, decided in one place; the features below ask it through thin adapters.
  const planLimits = createPlanLimits({
    // The plan alone (row and licence): status() would also count the month's use and the warnings.
    plan: () => subscription.inForce().plan,
    cloudMessagesInMonth: (at) => usage.cloudMessagesInMonth(at),
    messagesByDayAndClass: (since) => usage.messagesByDayAndClass(since),
    entityLedger: settingsLedger(settings),
    countInstalledModels: () => llm.hubModelCount(),
    now: deps.now,
  });
  // The hub's first start begins its trial.
  subscription.ensureStarted();
  const licences = createLicenceService({
    licences: licenceRows,
    subscription,
    // A vendor's own key (env, checked at start) or the one shipped in the build.
    publicKey: ed25519PublicKey(deps.env.NEXUS_LICENCE_PUBLIC_KEY ?? VENDOR_LICENCE_PUBLIC_KEY_PEM),
    hubId,
    audit,
    now: deps.now,
  });
  const vpnAdapter = deps.vpn ?? createVpnAdapter({ tailscaleSocket: deps.env.NEXUS_TAILSCALE_SOCKET });
  const networkInfo = createNetworkService({
    network: () => metrics.network(),
    vpn: vpnAdapter,
    log: deps.log,
  });
  const networkTools = createNetworkTools({
    mdns: deps.env.NEXUS_MDNS_INTERFACE
      ? { interface: deps.env.NEXUS_MDNS_INTERFACE, port: deps.env.NEXUS_MDNS_PORT, bind: '0.0.0.0' }
      : { port: deps.env.NEXUS_MDNS_PORT },
    wolPort: deps.env.NEXUS_WOL_PORT,
    now: deps.now,
  });
  const vpn = createVpnService({
    adapter: vpnAdapter,
    settings,
    log: deps.log,
    plan: planLimits,
    uplinks: { summary: () => uplinks.summary() },
    now: deps.now,
  });
  // The hub's WireGuard server and uplinks (issue 17): restored at start, stopped at shutdown.
  const wgAdapter =
    deps.wireguard ?? createWireguardAdapter({ configDir: path.join(deps.env.dataDir, 'wireguard') });
  deps.live.registerTopic('vpn.events', { allow: (u) => u.role === 'admin' || u.role === 'superadmin' });
  const vpnEvents = createVpnEventLog({
    db: deps.db,
    publish: (event) => deps.live.publish('vpn.events', event),
    now: deps.now,
  });
  const wgServer = createWgServerService({
    db: deps.db,
    secrets: deps.secrets,
    adapter: wgAdapter,
    events: vpnEvents,
    log: deps.log.child({ feature: 'wireguard' }),
    now: deps.now,
  });
  const uplinks = createUplinksService({
    db: deps.db,
    secrets: deps.secrets,
    settings,
    adapter: wgAdapter,
    events: vpnEvents,
    log: deps.log.child({ feature: 'vpn-uplinks' }),
    plan: planLimits,
    onSwitch: () => vpn.invalidate(),
    now: deps.now,
  });
  inBackground(deps.log, 'restoring the WireGuard server', () => wgServer.start());
  inBackground(deps.log, 'restoring the VPN uplinks', () => uplinks.start());
  deps.onShutdown?.(() => {
    uplinks.stop();
    inBackground(deps.log, 'stopping the WireGuard server', () => wgServer.stop());
  });
  const ollama = createOllamaClient({ baseUrl: deps.env.OLLAMA_URL });
  const llm = createLlmFeature({
    db: deps.db,
    secrets: deps.secrets,
    log: deps.log,
    live: deps.live,
    ollamaUrl: deps.env.OLLAMA_URL,
    limits: planLimits,
    usage,
    audit,
    // The swarm's Ollama services answer the built-in provider's chats too (read when a chat asks).
    endpointSource: { list: () => swarmOllamaSource(engine).list() },
    now: deps.now,
  });
  const llmStatus = createLlmStatusService({
    providers: deps.llmProviders ?? (() => llm.providers.statusProviders()),
    requests: usage,
    now: deps.now,
  });
  const diagnostics = createDiagnosticsService({
    sources: metrics,
    logLines: () => deps.logRing?.lines() ?? [],
    env: deps.env,
    now: deps.now,
  });
  const engine = deps.docker ?? createDockerAdapter(deps.env.DOCKER_HOST);
  const docker = createDockerFeature({
    engine: alerts.wrapEngine(engine),
    db: deps.db,
    secrets: deps.secrets,
    live: deps.live,
    log: deps.log,
    catalogDir: deps.catalogDir ?? deps.env.NEXUS_CATALOG_DIR,
    // Registries are outbound requests like any other: a LAN registry needs the admin's allow-list entry.
    audit,
    guard: createOutboundGuard({ allowList: outboundSettings.allowList }),
    agentContainer: deps.env.NEXUS_AGENT_CONTAINER,
    onShutdown: deps.onShutdown,
    now: deps.now,
  });
  // Issue 20: a container's tag got a new image (told once per new registry digest).
  docker.updates.onUpdateAvailable((check) =>
    deps.notifications.notify({
      category: 'containers',
      level: 'info',
      title: `Update available for ${check.name.slice(0, 150)}`,
      body: `${check.image.slice(0, 1500)} has a newer image in its registry`,
      link: '/nexus-docker',
    }),
  );
  // The appliance: first-boot setup, the Jetson check and Nexus management.
  const hostFiles = createHostFiles(deps.env.NEXUS_HOST_ROOT);
  const jetson = createJetsonService({ host: hostFiles, dataDir: deps.env.dataDir, now: deps.now });
  const setup = createSetupService({
    settings,
    hasAccounts: () => auth.hasAccounts(),
    host: hostFiles,
    system: deps.system.info,
    probe: createNetworkProbe(),
    listenHost: deps.env.HOST,
    log: deps.log,
    now: deps.now,
  });
  // Notifications beyond the console (issue 19): preferences, channels and the outbox.
  const notificationDelivery = createNotificationDelivery({
    db: deps.db,
    log: deps.log,
    secrets: deps.secrets,
    notifications: deps.notifications,
    mailer: deps.mailer ?? null,
    homeAssistant: {
      notify: async (service, data) => {
        await homeAssistant.connection.requireSession().callService('notify', service, data, {});
      },
      services: async () => {
        const session = homeAssistant.connection.currentSession();
        if (!session) return [];
        return Object.keys((await session.getServices()).notify ?? {}).map((name) => `notify.${name}`);
      },
    },
    // ntfy and webhook URLs are the admin's, but a LAN address still needs the admin's allow-list.
    guard: createOutboundGuard({ allowList: outboundSettings.allowList }),
    publicUrl: deps.env.NEXUS_PUBLIC_URL ?? null,
    hubName: () => setup.identity().hubName,
    now: deps.now,
    outbox: { retryDelaysMs: deps.env.NEXUS_NOTIFY_RETRY_MS, pollMs: deps.env.NEXUS_NOTIFY_POLL_MS },
  });
  deps.onShutdown?.(notificationDelivery.start());
  // The board does not change while the agent runs.
  let board: BoardSummary | null = null;
  const nexusManagement = createNexusManagementService({
    repo: createNexusManagementRepository(deps.db, deps.now),
    secrets: deps.secrets,
    peers: createNexusPeerClient(),
    log: deps.log,
    version: APP_VERSION,
    startedAt: AGENT_STARTED_AT,
    hostname: deps.system.info.hostname,
    hostUptime: deps.system.info.uptimeSeconds,
    identity: setup.identity,
    setupState: () => {
      const progress = setup.progress();
      return { finished: progress.finishedAt !== null, currentStep: progress.currentStep };
    },
    board: () => {
      if (!board) {
        const report = jetson.report();
        board = {
          isJetson: report.isJetson,
          model: report.board.model,
          jetpack: report.jetpack?.version ?? null,
          l4t: report.l4t?.release ?? null,
        };
      }
      return board;
    },
    nexusStatus: () => metrics.nexusStatus(),
    docker: engine,
    ollama,
    haHealth: deps.haHealth ?? homeAssistant.health,
    database: () => databaseFacts(deps.db, deps.env.dataDir),
    networkChecks: async (port) => (await setup.networkCheck(port)).checks,
    hardwareChecks: () => jetson.report().checks,
    debugFacts: () => ({
      config: configFacts(deps.env),
      dataDir: deps.env.dataDir,
      hostRoot: hostFiles.root,
    }),
    now: deps.now,
  });
  // Issue 24: the hubs as one Docker Swarm; node cards carry what each hub's agent last said.
  const fleet = createFleetFeature({
    engine,
    audit,
    log: deps.log,
    peers: () => nexusManagement.peerReadings(),
    self: () => nexusManagement.selfReading(),
  });
  const speech = createSpeechService({
    repo: createSpeechRepository(deps.db, deps.now),
    secrets: deps.secrets,
    log: deps.log,
  });
  const flows = createFlowsFeature({
    db: deps.db,
    secrets: deps.secrets,
    live: deps.live,
    log: deps.log,
    dataDir: deps.env.dataDir,
    audit,
    now: deps.now,
    authenticateSatellite: (id, token) => satellites.authenticate(id, token),
    onRunEnded: alerts.onFlowRunEnded,
    ports: {
      llm: chatAsLlmPort(llm.chat),
      homeAssistant: planLimitedHomeAssistant(
        {
          callService: (role, domain, service, input) =>
            homeAssistant.callService(role, domain, service, input),
        },
        planLimits,
      ),
      notify: {
        notify: async (userId, n) => ({
          id: deps.notifications.notify({
            userId,
            level: n.severity,
            category: 'flows',
            title: n.title,
            body: n.body || null,
          }).id,
        }),
      },
      // Members choose these URLs: every hop passes the outbound guard and the admin's allow-list.
      http: createHttpRequester({ guard: createOutboundGuard({ allowList: outboundSettings.allowList }) }),
      speech: speech.port,
    },
  });
  const wakeWords = createWakeWordsService({
    repo: createWakeWordsRepository(deps.db, deps.now),
    dataDir: deps.env.dataDir,
    publicUrl: deps.env.NEXUS_PUBLIC_URL ?? null,
  });
  const trustProxy = deps.env.NEXUS_TRUST_PROXY;
  const phones = createPhonesService({
    db: deps.db,
    sessions,
    audit,
    log: deps.log,
    now: deps.now,
  });
  // Whole-hub backups and restore (issue 20). Tests keep scrypt cheap; production uses its full cost.
  const backups = createBackupsService({
    sqlite: sqliteOf(deps.db),
    dataDir: deps.env.dataDir,
    settings,
    secrets: deps.secrets,
    log: deps.log,
    audit,
    hubName: () => setup.identity().hubName,
    appVersion: APP_VERSION,
    kdf: deps.env.NODE_ENV === 'test' ? { N: SCRYPT_TEST_MIN_N, minN: SCRYPT_TEST_MIN_N } : {},
    restart: deps.restart,
    onShutdown: deps.onShutdown,
    now: deps.now,
  });
  const onboarding = createOnboardingService(
    onboardingFacts({
      haHealth: deps.haHealth ?? homeAssistant.health,
      llmProviders: deps.llmProviders ?? (() => llm.providers.statusProviders()),
      satellites: () => satellites.list(),
      wakeWords: (viewer) => wakeWords.list(viewer),
      flows: (viewer) => flows.service.list(viewer).length,
      passkeys: (userId) => countPasskeys(deps.db, userId),
      hasBackup: () => backups.hasBackup(),
    }),
  );
  for (const stop of alerts.start({
    timings: {
      haGraceMs: deps.env.NEXUS_ALERT_HA_GRACE_MS,
      containerStableMs: deps.env.NEXUS_ALERT_CONTAINER_STABLE_MS,
      pollMs: deps.env.NEXUS_ALERT_POLL_MS,
    },
    engine,
    homeAssistant: homeAssistant.connection,
    ollama: { url: deps.env.OLLAMA_URL, probe: () => ollama.version() },
    satellites: () => satellites.list(),
    sampler: deps.system.sampler,
    host: {
      diskPaths: [deps.env.dataDir, hostFiles.root],
      memory: deps.system.info.readMemoryPressure?.bind(deps.system.info),
      thermal: deps.system.info.readThermalTrips?.bind(deps.system.info),
    },
    vpn: () => vpn.status(),
    uplinks: () => uplinks.summary(),
    // The trial's end, or the licence's expiry (then its grace's end): "ends in 7 days" follows it.
    subscription: () => subscription.inForce().period,
    backups,
  }))
    deps.onShutdown?.(stop);
  // Issue 19: HA automations and devices by area, and every integration on one screen.
  const haAutomations = createAutomationsService({
    connection: homeAssistant.connection,
    adapter: haAdapter,
    marks: createAutomationMarks(deps.db, deps.now),
    now: deps.now,
  });
  // Issue 16: behavioural analytics on the home's HA history, kept on the hub.
  const analytics = startAnalytics({
    db: deps.db,
    settings,
    connection: homeAssistant.connection,
    adapter: haAdapter,
    automations: haAutomations,
    memberAccess: createMemberAccessStore(settings),
    audit,
    log: deps.log,
    now: deps.now,
    onShutdown: deps.onShutdown,
    plan: planLimits,
  });
  const haDevices = createDevicesService({
    connection: homeAssistant.connection,
    memberAccess: createMemberAccessStore(settings),
  });
  const integrations = createIntegrationsService({
    homeAssistant,
    ollama,
    ollamaUrl: deps.env.OLLAMA_URL,
    llmProviders: deps.llmProviders ?? (() => llm.providers.statusProviders()),
    speech,
    smtp: { url: deps.env.SMTP_URL ?? null, verify: deps.mailer?.verify?.bind(deps.mailer) },
    ntfyStatus: (): NtfyChannelStatus => {
      const ntfy = notificationDelivery.channelStatus().find((c) => c.channel === 'ntfy');
      return {
        configured: ntfy?.configured ?? false,
        enabled: ntfy?.enabled ?? false,
        lastError: ntfy?.lastError ?? null,
      };
    },
    vpn,
    subscription,
    now: deps.now,
  });
  const inviteOptions = {
    publicUrl: deps.env.NEXUS_PUBLIC_URL ?? null,
    trustProxy,
    hasAccounts: () => auth.hasAccounts(),
  };
  const routes = new Hono<AppEnv>()
    .route('/health', healthRoutes(APP_VERSION))
    .route('/tls', tlsRoutes(deps.tls, audit))
    .route(
      '/auth/password-reset',
      passwordResetRoutes(passwordResets, { trustProxy: deps.env.NEXUS_TRUST_PROXY }),
    )
    .route('/notifications', notificationRoutes(deps.notifications, notificationDelivery))
    .route('/docs', docsRoutes(APP_VERSION, deps.routeTable))
    .route('/auth/registration', registrationRoutes(registration, inviteOptions))
    .route('/auth/phones', phoneRoutes(phones, { publicUrl: deps.env.NEXUS_PUBLIC_URL ?? null, trustProxy }))
    .route(
      '/auth/passkeys',
      passkeyRoutes(passkeys, {
        trustProxy: deps.env.NEXUS_TRUST_PROXY,
        publicUrl: deps.env.NEXUS_PUBLIC_URL ?? null,
        now: deps.now,
      }),
    )
    .route('/auth', authRoutes(auth, { trustProxy: deps.env.NEXUS_TRUST_PROXY }))
    .route('/invites', inviteRoutes(registration, inviteOptions))
    .route('/auth', accountSecurityRoutes(accountSecurity, { trustProxy, now: deps.now }))
    .route('/users', userRoutes(auth))
    .route('/audit', auditRoutes(auditRows, deps.now))
    .route('/users', userSecurityRoutes(accountSecurity, accountAdmin, audit, { trustProxy, now: deps.now }))
    .route('/live', liveRoutes({ live: deps.live, stillSignedIn: (t) => deps.sessions.validate(t) !== null }))
    .route('/nexus', nexusStatusRoutes(metrics))
    .route('/system', systemRoutes(metrics))
    .route('/diagnostics', diagnosticsRoutes(diagnostics, deps.system.info.hostname))
    .route('/devices/satellite', satellitesRoutes(satellites, { trustProxy: deps.env.NEXUS_TRUST_PROXY }))
    .route('/llm/pipeline', llmStatusRoutes(llmStatus))
    .route('/llm', llm.routes)
    .route('/ollama', llm.ollamaProxy)
    .route('/vpn', vpnRoutes(vpn))
    .route(
      '/network',
      visitorRoutes({
        trustProxy,
        interfaces: async () => (await metrics.network()).interfaces,
        wireguardRange: async () => {
          const server = await wgServer.view();
          return server.configured ? server.address : null;
        },
      }),
    )
    .route('/vpn', wireguardRoutes({ server: wgServer, uplinks, events: vpnEvents }))
    .route('/network', networkRoutes({ info: networkInfo, tools: networkTools }))
    .route('/ha-patterns', haPatternsRoutes(deps.haHealth ?? homeAssistant.health))
    .route('/ha', homeAssistantRoutes(homeAssistant))
    .route('/ha', haAutomationRoutes(haAutomations, haDevices))
    .route('/integrations', integrationsRoutes(integrations))
    .route('/analytics', analytics.routes)
    .route('/settings/home-assistant', homeAssistantSettingsRoutes(homeAssistant, audit))
    .route('/settings/outbound', outboundSettingsRoutes(outboundSettings))
    .route('/subscription', subscriptionRoutes(subscription, licences, planLimits))
    .route('/docker', docker.routes)
    .route('/fleet/stacks', docker.fleetStackRoutes)
    .route('/fleet', fleet.routes)
    .route(
      '/setup',
      setupRoutes(setup, {
        // The owner is the first account, made by the auth feature's own sign-up, and signed in.
        signUpOwner: async (c, owner) => {
          const { user, session } = await auth.register(owner, clientInfo(c, trustProxy), {
            onlyIfFirst: true,
          });
          setSessionCookie(c, session, trustProxy);
          return toPublicUser(user);
        },
        isLocalClient: (c) => isLocalAddress(clientAddress(c, trustProxy)),
        // A new or reset hub restores an old one: only while it has no account (409 after).
        restore: async (c) => {
          if (auth.hasAccounts()) throw conflict('This hub is already set up: restore from Nexus management');
          return receiveRestore(c, backups, 'first-boot');
        },
      }),
    )
    .route('/diagnostics/jetson', jetsonRoutes(jetson))
    .route(
      '/nexus',
      nexusManagementRoutes(nexusManagement, {
        updateIdentity: (input) => setup.updateIdentity(input),
        audit,
      }),
    )
    .route('/flows', flows.routes)
    .route('/hooks', flows.hooks)
    .route('/speech', speechRoutes(speech, audit))
    .route(
      '/wake-words',
      wakeWordsRoutes(wakeWords, {
        authenticateSatellite: (id, token) => satellites.authenticate(id, token),
      }),
    )
    .route('/crowdsource', crowdsourceRoutes(wakeWords, { trustProxy, now: deps.now }))
    .route('/onboarding', onboardingRoutes(onboarding))
    .route('/backups', backupsRoutes(backups, { trustProxy, now: deps.now }));
  return {
    routes,
    /** Whether a visitor's page may be the prerendered one: past the first-boot wizard (web/vite-prerender.ts). */
    isSetUp: () => !setup.status().needsSetup,
  };
}

function defaultSystem(deps: AppDeps) {
  const info = createSystemInfo({ hostRoot: deps.env.NEXUS_HOST_ROOT });
  return {
    info,
    sampler: createMetricsSampler({ info, log: deps.log, version: APP_VERSION, now: deps.now }),
  };
}

export function createApp(deps: AppDeps) {
  const sessions = deps.sessions ?? createSessionService(deps.db, deps.now);
  const notifications =
    deps.notifications ?? createNotificationService({ db: deps.db, log: deps.log, now: deps.now });
  const live = deps.live ?? createLiveHub({ log: deps.log });
  const system = deps.system ?? defaultSystem(deps);
  live.registerTopic('metrics', { latestOnly: true });
  live.registerTopic('satellites', { latestOnly: true });
  system.sampler.onSample((sample) => live.publish('metrics', sample));
  publishNotifications(notifications, live);
  const metrics = createMetricsFeature({ ...system, now: deps.now });
  const hostCheck = deps.hostCheck ?? hostCheckFor(deps.env, system.info.hostname());
  const app = new Hono<AppEnv>();
  // A flood of refused requests writes a few lines per client and route, then a count.
  const requestLines = createLogSampler({
    onSuppressing: (key, perWindow, windowMs) =>
      deps.log.warn(
        { key, windowSeconds: windowMs / 1000 },
        `request log: over ${perWindow} similar requests (${key}); the rest of this window's are counted, not logged`,
      ),
    onSuppressed: (key, suppressed, windowMs) =>
      deps.log.warn(
        { key, suppressed, windowSeconds: windowMs / 1000 },
        `request log: suppressed ${suppressed} similar requests (${key})`,
      ),
  });

  // Read by http/request-info.ts wherever forwarded headers are weighed.
  const trustedProxies = trustedProxyList(deps.env.NEXUS_TRUSTED_PROXIES);
  if (trustedProxies) {
    app.use('*', async (c, next) => {
      c.set('trustedProxies', trustedProxies);
      await next();
    });
  }

  app.use('*', async (c, next) => {
    const requestId = nextRequestId();
    const log = deps.log.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('user', null);
    c.set('sessionToken', null);
    const started = performance.now();
    await next();
    if (c.req.path.startsWith('/api/')) {
      const status = c.res.status;
      const entry = {
        method: c.req.method,
        path: redactPath(c.req.path),
        status,
        ms: Math.round(performance.now() - started),
      };
      // Every open tab polls several status endpoints: successful reads are debug-level noise,
      // changes and failures are what an owner or a technician looks for in the log.
      if (status >= 400 || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) {
        if (requestLines.shouldLog(requestLogKey(c, status, deps.env.NEXUS_TRUST_PROXY))) {
          log.info(entry, 'request');
        }
      } else log.debug(entry, 'request');
    }
  });
  app.use('*', securityHeaders(deps.env.NEXUS_TRUST_PROXY));
  app.use('*', refuseForeignHosts(hostCheck));
  app.use('*', redirectToHttps({ httpsPort: deps.tls.httpsPort, trustProxy: deps.env.NEXUS_TRUST_PROXY }));
  app.use('/api/*', appBodyLimit);
  // JSON answers of 1 KB and more go out br/gzip compressed; streams and downloads flush as they are.
  app.use('/api/*', compressJsonAnswers);
  // Form posts from other sites are refused; JSON requests are already covered by SameSite=Lax and CORS.
  // Browsers send Origin or Sec-Fetch-Site with every cross-site POST, so a request with neither
  // comes from a script or curl, where CSRF cannot happen (Go's CrossOriginProtection uses the
  // same rule); without this, a bodiless POST such as /api/auth/logout from curl would be refused.
  const refuseCrossSiteForms = csrf();
  app.use('/api/*', async (c, next) => {
    if (c.req.header('origin') === undefined && c.req.header('sec-fetch-site') === undefined) {
      return next();
    }
    try {
      return await refuseCrossSiteForms(c, next);
    } catch (error) {
      if (error instanceof HTTPException && error.status === 403) {
        throw new HttpError(403, 'Cross-site form submissions are not accepted');
      }
      throw error;
    }
  });
  app.use('/api/*', async (c, next) => {
    const token = readCookie(c.req.header('cookie'), SESSION_COOKIE);
    if (token) {
      const user = sessions.validate(token);
      if (user) {
        c.set('user', user);
        c.set('sessionToken', token);
      }
    }
    await next();
  });
  // Security events recorded while a request is served know who asked and from where.
  app.use('/api/*', auditRequestScope(deps.env.NEXUS_TRUST_PROXY));

  const api = apiRoutes({
    ...deps,
    sessions,
    notifications,
    system,
    live,
    metrics,
    routeTable: () => app.routes,
  });
  app.route('/api', api.routes);
  app.all('/api/*', apiNotFound);
  app.route('/', caCertificateRoute(deps.tls));
  if (deps.webDist) {
    mountWebApp(app, deps.webDist, {
      prerenderedFor: (c) =>
        readCookie(c.req.header('cookie'), SESSION_COOKIE) === undefined && api.isSetUp(),
      signedInFor: (c) => {
        const token = readCookie(c.req.header('cookie'), SESSION_COOKIE);
        return token !== undefined && api.isSetUp() && sessions.validate(token) !== null;
      },
    });
  }
  app.onError(errorHandler);
  app.notFound(apiNotFound);
  // The features' cheap reads, answered before Hono when the caller is signed in: the same
  // session service and Host check as the middleware above (http/hot-reads.ts says how a feature
  // adds one). A server uses `hotReads.createServer` (or `hotReads.handle`); what every request
  // gets belongs here too.
  const hotReads = createHotReads({
    log: deps.log,
    validate: (token) => sessions.validate(token),
    hostAllowed: hostCheck,
    isGetRoute: (path) => app.routes.some((r) => r.method === 'GET' && r.path === path),
    nextRequestId,
    routes: { ...metrics.hotReads },
  });
  return Object.assign(app, { hotReads });
}
