import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../lib/http-error.js';
import { checkMemberTargets } from './member-access.js';

const access = { domains: ['light'], entities: ['switch.coffee_maker', 'script.good_night'] };
const call = (
  domain: string,
  service: string,
  entityIds: string[] = [],
  serviceData: Record<string, unknown> = {},
) => {
  try {
    checkMemberTargets(access, { domain, service, entityIds, serviceData });
    return 200;
  } catch (err) {
    return (err as HttpError).status;
  }
};

describe("a member's service call targets", () => {
  it('passes listed entities and entities of listed domains', () => {
    expect(call('light', 'turn_on', ['light.kitchen'])).toBe(200);
    expect(call('switch', 'turn_on', ['switch.coffee_maker'])).toBe(200);
    expect(call('script', 'turn_on', ['script.good_night'])).toBe(200);
    expect(call('script', 'good_night')).toBe(200);
    expect(call('light', 'turn_off')).toBe(200);
  });

  it('refuses anything else with 403', () => {
    expect(call('switch', 'turn_on', ['switch.office_fan'])).toBe(403);
    expect(call('light', 'turn_on', ['light.kitchen', 'switch.office_fan'])).toBe(403);
    expect(call('switch', 'turn_off')).toBe(403);
    expect(call('script', 'wake_up')).toBe(403);
    expect(call('script', 'turn_on')).toBe(403);
    for (const key of ['area_id', 'device_id', 'floor_id', 'label_id']) {
      expect(call('light', 'turn_on', ['light.kitchen'], { [key]: 'x' }), key).toBe(403);
    }
  });
});
