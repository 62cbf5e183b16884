import { screen, type ScreenDef } from './screen';
import { firstConsoleRoutes, screens as entryScreens, type RouteDef } from './routes';

/**
 * The console's screens and its signed-in table (spec §2), loaded with the console's frame
 * (signed-in-routes.tsx) so a visitor's first page does not carry them (issue 26). The visitors'
 * screens and the dashboard are the entry's (routes.tsx). To add a screen, add its line:
 *   key: screen('Title', async () => (await import('@/features/<f>')).SomePage),
 * and its route below.
 */
const screens = {
  ...entryScreens,
  onboarding: screen('Onboarding', async () => (await import('@/features/onboarding')).OnboardingPage),
  connections: screen(
    'VPN Connections',
    async () => (await import('@/features/connections')).ConnectionsPage,
  ),
  networkInfo: screen('Network Info', async () => (await import('@/features/network-info')).NetworkInfoPage),
  integrations: screen(
    'Integrations',
    async () => (await import('@/features/integrations')).IntegrationsPage,
  ),
  settings: screen('Account Settings', async () => (await import('@/features/account')).AccountSettingsPage),
  enrollPasskey: screen('Passkeys', async () => (await import('@/features/account')).EnrollPasskeyPage),
  authDashboard: screen('Sign-in Activity', async () => (await import('@/features/audit')).AuthDashboardPage),
  billing: screen('Billing', async () => (await import('@/features/billing')).BillingPage),
  purchaseHistory: screen(
    'Purchase History',
    async () => (await import('@/features/billing')).PurchaseHistoryPage,
  ),
  flowforge: screen('FlowForge Gallery', async () => (await import('@/features/flows')).GalleryPage),
  flowforgeApiKeys: screen('FlowForge API Keys', async () => (await import('@/features/flows')).ApiKeysPage),
  wakeWords: screen('Wake Word Training', async () => (await import('@/features/wake-words')).WakeWordsPage),
  wakeWordTraining: screen(
    'Wake Word Model Training',
    async () => (await import('@/features/wake-words')).TrainingPage,
  ),
  micTest: screen('Microphone Test', async () => (await import('@/features/wake-words')).MicTestPage),
  micDiagnostic: screen(
    'Microphone Diagnostics',
    async () => (await import('@/features/wake-words')).MicDiagnosticPage,
  ),
  diagnostics: screen(
    'System Diagnostics',
    async () => (await import('@/features/diagnostics')).DiagnosticsPage,
  ),
  advancedPipeline: screen('Advanced Pipeline', async () => (await import('@/features/flows')).BuilderPage),
  notifications: screen(
    'Notifications',
    async () => (await import('@/features/notifications/components/notifications-page')).NotificationsPage,
  ),
  aiControl: screen('LLM Control Center', async () => (await import('@/features/llm')).LlmControlPage),
  ollama: screen('Ollama Integration', async () => (await import('@/features/llm')).OllamaPage),
  adminDiagnostics: screen(
    'Admin Diagnostics',
    async () => (await import('@/features/diagnostics')).DiagnosticsPage,
  ),
  haLogbook: screen('HA Logbook', async () => (await import('@/features/home-assistant')).LogbookPage),
  haEntities: screen('HA Entities', async () => (await import('@/features/home-assistant')).EntitiesPage),
  haConnectionTest: screen(
    'HA Connection Test',
    async () => (await import('@/features/home-assistant')).ConnectionTestPage,
  ),
  analytics: screen(
    'Behavioral Intelligence',
    async () => (await import('@/features/analytics')).AnalyticsPage,
  ),
  homeAssistant: screen('HA Devices', async () => (await import('@/features/home-assistant')).HaDevicesPage),
  homeAssistantDevices: screen(
    'Home Assistant Devices',
    async () => (await import('@/features/home-assistant')).HomeAssistantDevicesPage,
  ),
  haUnified: screen('Home Assistant', async () => (await import('@/features/home-assistant')).HaUnifiedPage),
  unifiTeleport: screen(
    'UniFi Teleport',
    async () => (await import('@/features/connections')).UnifiTeleportPage,
  ),
  haDeviceControl: screen(
    'HA Device Control',
    async () => (await import('@/features/home-assistant')).DeviceControlPage,
  ),
  // Its /nexus-status section is the diagnostics screen (spec §2 puts both on one screen).
  nexusManagement: screen('Nexus Management', async () =>
    (await import('@/features/nexus-management')).nexusManagementScreen(
      async () => (await import('@/features/diagnostics')).DiagnosticsPage,
    ),
  ),
  nexusSetup: screen('Nexus Setup', async () => (await import('@/features/setup')).SetupPage),
  nexusActivation: screen(
    'Nexus Activation',
    async () => (await import('@/features/billing')).ActivationPage,
  ),
  nexusDeploy: screen('Nexus Deploy', async () => (await import('@/features/deploy')).DeployPage),
  nexusLogs: screen('Nexus Logs', async () => (await import('@/features/docker')).LogsPage),
  nexusDocker: screen('Nexus Docker', async () => (await import('@/features/docker')).DockerPage),
  nexusControl: screen('Nexus Control', async () => (await import('@/features/docker')).ControlPage),
  multiNexus: screen('Multi-Nexus', async () => (await import('@/features/nexus-management')).HubsPage),
  satelliteManagement: screen(
    'Satellite Management',
    async () => (await import('@/features/satellites')).SatelliteManagementPage,
  ),
  satelliteManagementLegacy: screen(
    'Satellite Management (Legacy)',
    async () => (await import('@/features/satellites')).SatelliteManagementLegacyPage,
  ),
  sat1Control: screen(
    'Satellite1 Control',
    async () => (await import('@/features/satellites')).Sat1ControlPage,
  ),
  satelliteControls: screen(
    'Satellite Controls',
    async () => (await import('@/features/satellites')).SatelliteControlsPage,
  ),
  creativeNetworking: screen(
    'Creative Networking',
    async () => (await import('@/features/creative-networking')).CreativeNetworkingPage,
  ),
  automations: screen('Automations', async () => (await import('@/features/automations')).AutomationsPage),
  smartHomeDevices: screen(
    'Smart Home Devices',
    async () => (await import('@/features/smart-home-devices')).SmartHomeDevicesPage,
  ),
  sessionSimulations: screen(
    'Session Simulations',
    async () => (await import('@/features/flows')).SimulationsPage,
  ),
  llmUsageDiscovery: screen('LLM Usage', async () => (await import('@/features/llm')).UsagePage),
  tokenizationDemo: screen(
    'Tokenization Demo',
    async () => (await import('@/features/llm')).TokenizationPage,
  ),
  twoFactorTest: screen('2FA Test', async () => (await import('@/features/account')).TwoFactorTestPage),
  phoneAdmin: screen('Phone Admin', async () => (await import('@/features/phones')).PhoneAdminPage),
  userManagement: screen(
    'User Management',
    async () => (await import('@/features/users')).UserManagementPage,
  ),
} satisfies Record<string, ScreenDef>;

/** Spec §2, signed-in routes. /auth sends on to /dashboard; any other path is not found. */
export const signedInRoutes: readonly RouteDef[] = [
  { paths: ['/onboarding'], screen: screens.onboarding },
  ...firstConsoleRoutes,
  { paths: ['/connections'], screen: screens.connections },
  { paths: ['/network-info'], screen: screens.networkInfo },
  { paths: ['/integrations'], screen: screens.integrations },
  { paths: ['/settings'], screen: screens.settings },
  { paths: ['/auth-dashboard'], screen: screens.authDashboard },
  { paths: ['/pricing'], screen: screens.pricing },
  { paths: ['/billing'], screen: screens.billing },
  { paths: ['/checkout'], screen: screens.checkout },
  { paths: ['/purchase-history'], screen: screens.purchaseHistory },
  { paths: ['/flowforge', '/studio', '/gallery'], screen: screens.flowforge },
  { paths: ['/flowforge/api-keys'], screen: screens.flowforgeApiKeys },
  { paths: ['/wake-words'], screen: screens.wakeWords },
  { paths: ['/wake-word-training'], screen: screens.wakeWordTraining },
  { paths: ['/mic-test'], screen: screens.micTest },
  { paths: ['/mic-diagnostic'], screen: screens.micDiagnostic },
  { paths: ['/system-diagnostics', '/system-updates'], screen: screens.diagnostics },
  { paths: ['/advanced-pipeline'], screen: screens.advancedPipeline },
  { paths: ['/crowdsource/:wakeWord?'], screen: screens.crowdsource },
  { paths: ['/notifications'], screen: screens.notifications },
  {
    paths: [
      '/llm',
      '/llm-control',
      '/pipeline-control',
      '/llm-pipelines',
      '/llm-management',
      '/llm-router',
      '/pipeline-builder',
    ],
    screen: screens.aiControl,
  },
  { paths: ['/ollama'], screen: screens.ollama },
  { paths: ['/admin-diagnostics'], screen: screens.adminDiagnostics },
  { paths: ['/ha-logbook'], screen: screens.haLogbook },
  { paths: ['/ha-entities'], screen: screens.haEntities },
  { paths: ['/ha-connection-test'], screen: screens.haConnectionTest },
  {
    paths: ['/ha-pattern-predictor', '/pattern-analysis', '/behavioral-analytics'],
    screen: screens.analytics,
  },
  { paths: ['/home-assistant'], screen: screens.homeAssistant },
  { paths: ['/home-assistant-devices'], screen: screens.homeAssistantDevices },
  {
    paths: [
      '/ha-connection-setup',
      '/ha-manager',
      '/ha-test',
      '/ha-web-troubleshoot',
      '/ha-summary',
      '/ha-debug',
    ],
    screen: screens.haUnified,
  },
  { paths: ['/unifi-teleport'], screen: screens.unifiTeleport },
  { paths: ['/ha-device-control'], screen: screens.haDeviceControl },
  {
    paths: ['/nexus-management', '/nexus-status', '/nexus-test', '/nexus-debug', '/jetson-check'],
    screen: screens.nexusManagement,
  },
  { paths: ['/nexus-setup', '/install', '/nexus-quick-start'], screen: screens.nexusSetup },
  {
    paths: ['/nexus-deploy', '/remote-deploy', '/nexus-manual', '/nexus-deployment'],
    screen: screens.nexusDeploy,
  },
  // Licence activation (issue 22), also the target of the store's activation link (?key=…).
  { paths: ['/nexus-activation'], screen: screens.nexusActivation },
  { paths: ['/nexus-logs'], screen: screens.nexusLogs },
  { paths: ['/nexus-docker'], screen: screens.nexusDocker },
  { paths: ['/nexus-control'], screen: screens.nexusControl },
  { paths: ['/multi-nexus'], screen: screens.multiNexus },
  { paths: ['/satellite-management'], screen: screens.satelliteManagement },
  { paths: ['/satellite-management-legacy'], screen: screens.satelliteManagementLegacy },
  { paths: ['/sat1-control'], screen: screens.sat1Control },
  { paths: ['/satellite-controls/:id'], screen: screens.satelliteControls },
  { paths: ['/creative-networking'], screen: screens.creativeNetworking },
  { paths: ['/automations'], screen: screens.automations },
  { paths: ['/smart-home-devices'], screen: screens.smartHomeDevices },
  { paths: ['/session-simulations'], screen: screens.sessionSimulations },
  { paths: ['/llm-usage-discovery'], screen: screens.llmUsageDiscovery },
  { paths: ['/tokenization-demo'], screen: screens.tokenizationDemo },
  { paths: ['/enroll-passkey'], screen: screens.enrollPasskey },
  { paths: ['/2fa-test'], screen: screens.twoFactorTest },
  { paths: ['/phone-admin'], screen: screens.phoneAdmin },
  { paths: ['/user-management'], screen: screens.userManagement },
  { paths: ['/help'], screen: screens.help },
  { paths: ['/docs'], screen: screens.docs },
  { paths: ['/privacy'], screen: screens.privacy },
  { paths: ['/terms'], screen: screens.terms },
  // The auth screen itself sends a signed-in visitor on to /dashboard (after the 500 ms pause
  // that follows a registration, spec §4).
  { paths: ['/auth'], screen: screens.auth, bare: true },
  // A phone already signed in that scans a new link becomes the paired phone.
  { paths: ['/pair'], screen: screens.pair, bare: true },
];
