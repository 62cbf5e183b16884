import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error.js';
import { configFromInput, configToYaml, newAutomationId, parseAutomationYaml } from './automation-config.js';
import { parse } from 'yaml';

function problem(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('automation YAML', () => {
  it('writes YAML that means the same to Home Assistant (YAML 1.1): on, off and times are quoted', () => {
    const config = {
      alias: 'Porch',
      triggers: [{ trigger: 'time', at: '07:05:00' }],
      conditions: [{ condition: 'state', entity_id: 'sun.sun', state: 'off' }],
      actions: [{ action: 'light.turn_on', target: { entity_id: 'light.porch' } }],
      to: 'on',
    };
    const text = configToYaml(config);
    expect(text).toMatch(/at: ["']07:05:00["']/);
    expect(text).toMatch(/to: ["']on["']/);
    // Read back as HA reads it, the values are still the strings.
    expect(parse(text, { version: '1.1' })).toEqual(config);
  });

  it('accepts the new and the legacy keys', () => {
    const modern = parseAutomationYaml(
      'alias: Lights\ntriggers:\n  - trigger: state\n    entity_id: sun.sun\nactions:\n  - action: light.turn_on\n',
    );
    expect(modern.alias).toBe('Lights');
    const legacy = parseAutomationYaml(
      'alias: Old\ntrigger:\n  platform: sun\n  event: sunset\naction:\n  service: light.turn_on\n',
    );
    expect(legacy.trigger).toEqual({ platform: 'sun', event: 'sunset' });
  });

  it('names the line of a syntax error', () => {
    const error = problem(() => parseAutomationYaml('alias: A\ntriggers:\n  - trigger: state\n   bad: [\n'));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Line \d+: the YAML is not valid/);
    expect((error.details as { line: number }).line).toBeGreaterThanOrEqual(3);
  });

  it('names the line of an unknown key, and refuses missing triggers or actions', () => {
    const extra = problem(() =>
      parseAutomationYaml('alias: A\ntriggers: []\nactions:\n  - action: x.y\ncolour: red\n'),
    );
    expect(extra.message).toMatch(/^Line 5: "colour" is not an automation option/);
    const empty = problem(() => parseAutomationYaml('alias: A\ntriggers: []\nactions:\n  - action: x.y\n'));
    expect(empty.message).toMatch(/^Line 2: "triggers" must be a list/);
    const none = problem(() => parseAutomationYaml('alias: A\nactions:\n  - action: x.y\n'));
    expect(none.message).toMatch(/needs at least one trigger/);
    const noAlias = problem(() =>
      parseAutomationYaml('triggers:\n  - trigger: sun\nactions:\n  - action: x.y\n'),
    );
    expect(noAlias.message).toMatch(/alias/);
    expect(problem(() => parseAutomationYaml('- a\n- b\n')).message).toMatch(/mapping/);
  });

  it('sets the URL id over one in the config, and makes editor-style ids', () => {
    const config = configFromInput(
      { config: { alias: 'A', id: 'other', triggers: [{ trigger: 'sun' }], actions: [{ action: 'x.y' }] } },
      '1700000000000',
    );
    expect(config.id).toBe('1700000000000');
    expect(newAutomationId(5, (id) => id === '5' || id === '6')).toBe('7');
  });
});
