import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import type { HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startHomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { waitFor } from '../support/wait-for.js';

let sim: HomeAssistantSim;
let smtp: SmtpSink;
let ollama: OllamaApiSim;
let agent: RunningAgent;
let owner: Client;
let member: Client;

const YAML = `alias: Porch light at sunset
description: Made in the YAML editor
mode: single
triggers:
  - trigger: sun
    event: sunset
actions:
  - action: light.turn_on
    target:
      entity_id: light.living_room_lamp
`;

beforeAll(async () => {
  sim = await startHomeAssistantSim();
  smtp = await startSmtpSink();
  ollama = await startOllamaApiSim();
  agent = await startAgent({
    env: {
      HA_URL: sim.url,
      HA_TOKEN: sim.token,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Nexus <nexus@example.test>',
      OLLAMA_URL: ollama.url,
    },
  });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  member = new Client(agent.url);
  expect((await signUp(member, { name: 'Member' })).role).toBe('user');
  await waitFor(
    async () => (await owner.get('/api/ha/status')).json,
    (s) => s.state === 'connected',
    { what: 'HA connected' },
  );
});

afterAll(async () => {
  await agent?.stop();
  await sim?.stop();
  await smtp?.close();
  await ollama?.close();
});

describe('automations against the HA simulator', () => {
  let id: string;

  it('creates one from YAML: HA keeps the config, its entity appears, the hub marks it', async () => {
    const res = await owner.post('/api/ha/automations', { yaml: YAML });
    expect(res.status, res.text).toBe(201);
    id = res.json.id;
    expect(id).toMatch(/^\d{13}$/);
    expect(res.json).toMatchObject({
      entityId: 'automation.porch_light_at_sunset',
      alias: 'Porch light at sunset',
      state: 'on',
      createdBy: 'console',
      editable: true,
    });
    expect(sim.automationConfigs.get(id)).toMatchObject({ id, alias: 'Porch light at sunset' });
    const list = (await owner.get('/api/ha/automations')).json.automations;
    expect(list.find((a: { id: string }) => a.id === id)).toMatchObject({
      createdBy: 'console',
      lastTriggered: null,
    });
    const detail = await owner.get(`/api/ha/automations/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.json.yaml).toContain('alias: Porch light at sunset');
    expect(detail.json.config.triggers).toEqual([{ trigger: 'sun', event: 'sunset' }]);
  });

  it('creates one from a config object with the legacy keys', async () => {
    const res = await owner.post('/api/ha/automations', {
      config: {
        alias: 'Old style',
        trigger: { platform: 'sun', event: 'sunrise' },
        action: [{ service: 'light.turn_off' }],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.entityId).toBe('automation.old_style');
  });

  it('refuses invalid YAML with 400 naming the line, and sends nothing to HA', async () => {
    const before = sim.automationConfigs.size;
    const broken = await owner.post('/api/ha/automations', {
      yaml: 'alias: Broken\ntriggers:\n  - trigger: sun\n    event: [sunset\nactions: []\n',
    });
    expect(broken.status).toBe(400);
    expect(broken.json.message).toMatch(/^Line \d+:/);
    expect(typeof broken.json.details.line).toBe('number');
    const extra = await owner.post('/api/ha/automations', {
      yaml: 'alias: Extra\ntriggers:\n  - trigger: sun\nactions:\n  - action: x.y\nwhen: now\n',
    });
    expect(extra.status).toBe(400);
    expect(extra.json.message).toMatch(/^Line 6: "when"/);
    const noActions = await owner.post('/api/ha/automations', {
      config: { alias: 'No actions', triggers: [{ trigger: 'sun' }] },
    });
    expect(noActions.status).toBe(400);
    expect(noActions.json.message).toMatch(/action/);
    expect(sim.automationConfigs.size).toBe(before);
  });

  it('updates it: HA keeps the entity id when the alias changes', async () => {
    const res = await owner.put(`/api/ha/automations/${id}`, {
      yaml: YAML.replace('alias: Porch light at sunset', 'alias: Porch light at dusk'),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      entityId: 'automation.porch_light_at_sunset',
      alias: 'Porch light at dusk',
    });
    expect(sim.automationConfigs.get(id)?.alias).toBe('Porch light at dusk');
  });

  it('disables, enables and runs it; running sets last_triggered', async () => {
    const off = await owner.post(`/api/ha/automations/${id}/disable`);
    expect(off.status, off.text).toBe(200);
    expect(off.json.state).toBe('off');
    expect(sim.getState('automation.porch_light_at_sunset')?.state).toBe('off');
    const on = await owner.post(`/api/ha/automations/${id}/enable`);
    expect(on.json.state).toBe('on');
    const run = await owner.post(`/api/ha/automations/${id}/trigger`);
    expect(run.status, run.text).toBe(200);
    expect(run.json.lastTriggered).not.toBeNull();
    expect(sim.getState('automation.porch_light_at_sunset')?.attributes.last_triggered).toBeTruthy();
  });

  it('refuses a member on every write (403) and on the config, but shows the list read-only', async () => {
    const writes = [
      member.post('/api/ha/automations', { yaml: YAML }),
      member.put(`/api/ha/automations/${id}`, { yaml: YAML }),
      member.delete(`/api/ha/automations/${id}`),
      member.post(`/api/ha/automations/${id}/enable`),
      member.post(`/api/ha/automations/${id}/disable`),
      member.post(`/api/ha/automations/${id}/trigger`),
      member.get(`/api/ha/automations/${id}`),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).toBe(403);
    expect(sim.getState('automation.porch_light_at_sunset')?.state).toBe('on');
    const list = await member.get('/api/ha/automations');
    expect(list.status).toBe(200);
    expect(list.json.automations.some((a: { id: string }) => a.id === id)).toBe(true);
    expect((await new Client(agent.url).get('/api/ha/automations')).status).toBe(401);
  });

  it('deletes it: the config and the entity are gone', async () => {
    const res = await owner.delete(`/api/ha/automations/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(sim.automationConfigs.has(id)).toBe(false);
    const list = (await owner.get('/api/ha/automations')).json.automations;
    expect(list.some((a: { id: string }) => a.id === id)).toBe(false);
    expect((await owner.delete(`/api/ha/automations/${id}`)).status).toBe(404);
  });

  it('says so when the HA token is not an HA administrator (the config API answers 401)', async () => {
    sim.tokenIsNonAdmin = true;
    try {
      const res = await owner.post('/api/ha/automations', { yaml: YAML });
      expect(res.status).toBe(502);
      expect(res.json.message).toMatch(/needs the long-lived token of a Home Assistant administrator/);
      // The connection itself stays up.
      expect((await owner.get('/api/ha/status')).json.state).toBe('connected');
    } finally {
      sim.tokenIsNonAdmin = false;
    }
  });

  it('refuses ids outside the safe alphabet', async () => {
    expect((await owner.get('/api/ha/automations/..%2Fsecrets')).status).toBe(400);
  });
});

describe('devices by area', () => {
  it('groups HA devices by area with their entities; no area comes last', async () => {
    const res = await owner.get('/api/ha/devices');
    expect(res.status, res.text).toBe(200);
    const names = res.json.areas.map((g: { area: { name: string } | null }) => g.area?.name ?? null);
    expect(names).toContain('Kitchen');
    expect(names.at(-1)).toBeNull();
    const kitchen = res.json.areas.find((g: { area: { id: string } | null }) => g.area?.id === 'kitchen');
    const ceiling = kitchen.devices.find((d: { id: string }) => d.id === 'dev_kitchen_ceiling');
    expect(ceiling.entities.map((e: { entity_id: string }) => e.entity_id)).toContain(
      'light.kitchen_ceiling',
    );
    const noArea = res.json.areas.at(-1);
    expect(noArea.devices.some((d: { id: string }) => d.id === 'dev_front_lock')).toBe(true);

    const onlyKitchen = (await owner.get('/api/ha/devices?area=kitchen')).json.areas;
    expect(onlyKitchen).toHaveLength(1);
    expect(onlyKitchen[0].area.id).toBe('kitchen');
    const none = (await owner.get('/api/ha/devices?area=none')).json.areas;
    expect(none.map((g: { area: unknown }) => g.area)).toEqual([null]);
  });

  it('shows a member only the devices whose entities their access allows', async () => {
    const access = await owner.put('/api/settings/home-assistant/member-access', {
      domains: ['light'],
      entities: ['switch.coffee_maker'],
    });
    expect(access.status, access.text).toBe(200);
    const res = await member.get('/api/ha/devices');
    expect(res.status).toBe(200);
    const entities = res.json.areas.flatMap((g: any) =>
      g.devices.flatMap((d: any) => d.entities.map((e: any) => e.entity_id)),
    );
    expect(entities).toContain('light.kitchen_ceiling');
    expect(entities).toContain('switch.coffee_maker');
    expect(
      entities.some(
        (e: string) => e.startsWith('lock.') || e.startsWith('climate.') || e.startsWith('sensor.'),
      ),
    ).toBe(false);
    const deviceIds = res.json.areas.flatMap((g: any) => g.devices.map((d: any) => d.id));
    expect(deviceIds).not.toContain('dev_front_lock');
    expect(deviceIds).not.toContain('dev_thermostat');
  });
});

describe('integrations', () => {
  it('lists every integration with its real state; members get no addresses', async () => {
    const res = await owner.get('/api/integrations');
    expect(res.status, res.text).toBe(200);
    const byId = Object.fromEntries(res.json.integrations.map((i: any) => [i.id, i]));
    expect(Object.keys(byId)).toHaveLength(11);
    expect(byId['home-assistant']).toMatchObject({
      state: 'connected',
      settingsHref: '/ha-connection-setup',
    });
    expect(byId['home-assistant'].detail).toContain(sim.url);
    expect(byId.ollama.state).toBe('connected');
    expect(byId.smtp.state).toBe('connected');
    expect(byId['llm-providers'].state).toBe('not_configured');
    expect(byId['wyoming-stt'].state).toBe('not_configured');
    expect(byId.ntfy.state).toBe('not_configured');
    expect(byId.licence.settingsHref).toBe('/billing');

    const asMember = await member.get('/api/integrations');
    expect(asMember.status).toBe(200);
    expect(asMember.text).not.toContain(sim.url);
    expect(asMember.text).not.toContain(ollama.url);
    expect(asMember.text).not.toContain(String(smtp.port));
  });

  it('tests one now for real (admins only)', async () => {
    const attemptsBefore = sim.connectionAttempts;
    const res = await owner.post('/api/integrations/home-assistant/test');
    expect(res.status, res.text).toBe(200);
    expect(res.json.ok).toBe(true);
    expect(res.json.integration.state).toBe('connected');
    // The probe opened its own WebSocket to HA.
    expect(sim.connectionAttempts).toBeGreaterThan(attemptsBefore);

    await ollama.close();
    const down = await owner.post('/api/integrations/ollama/test');
    expect(down.json).toMatchObject({ ok: false, integration: { state: 'disconnected' } });

    expect((await member.post('/api/integrations/home-assistant/test')).status).toBe(403);
    expect((await owner.post('/api/integrations/nope/test')).status).toBe(400);
  });

  it('answers 503 for automations and devices while HA is not connected', async () => {
    await sim.stop();
    await waitFor(
      async () => (await owner.get('/api/ha/status')).json,
      (s) => s.state !== 'connected',
      { what: 'HA gone' },
    );
    const res = await owner.get('/api/ha/automations');
    expect(res.status).toBe(503);
    expect(res.json.message).toMatch(/Home Assistant/);
    expect((await owner.get('/api/ha/devices')).status).toBe(503);
  });
});
