import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFileSchema } from '../../contract/docker.js';
import { HttpError } from '../../lib/http-error.js';
import { resolveSettings } from './catalog.service.js';
import { planStack, referencedVariables } from './compose.js';
import { DEFAULT_CATALOG_DIR } from './docker.feature.js';

const catalog = catalogFileSchema.parse(
  JSON.parse(fs.readFileSync(path.join(DEFAULT_CATALOG_DIR, 'catalog.json'), 'utf8')),
);

describe('the app catalog in docker/', () => {
  it('has the hub services with their Wyoming ports', () => {
    const byId = Object.fromEntries(catalog.apps.map((a) => [a.id, a]));
    expect(Object.keys(byId).sort()).toEqual(
      ['home-assistant', 'ollama', 'wyoming-openwakeword', 'wyoming-piper', 'wyoming-whisper'].sort(),
    );
    const port = (id: string, key: string) => byId[id]!.fields.find((f) => f.key === key)?.default;
    expect(port('wyoming-whisper', 'WHISPER_PORT')).toBe('10300');
    expect(port('wyoming-piper', 'PIPER_PORT')).toBe('10200');
    expect(port('wyoming-openwakeword', 'OPENWAKEWORD_PORT')).toBe('10400');
  });

  for (const app of catalog.apps) {
    it(`${app.id}: the template deploys with the default settings`, () => {
      const compose = fs.readFileSync(path.join(DEFAULT_CATALOG_DIR, app.template), 'utf8');
      const fieldKeys = app.fields.map((f) => f.key);
      // Every ${VARIABLE} has a form field, and the probe's port is one of them.
      expect(fieldKeys).toEqual(expect.arrayContaining(referencedVariables(compose)));
      expect(fieldKeys).toContain(app.probe.portVariable);

      const plan = planStack(compose, resolveSettings(app, {}));
      expect(plan.warnings).toEqual([]);
      for (const service of plan.services) {
        expect(service.image).not.toContain('$');
        // GPU apps use the NVIDIA runtime; CPU-only ones do not ask for it.
        expect(service.raw.runtime === 'nvidia').toBe(app.gpu);
      }
    });
  }

  it('checks form settings against the fields', () => {
    const whisper = catalog.apps.find((a) => a.id === 'wyoming-whisper')!;
    expect(resolveSettings(whisper, { WHISPER_PORT: '10301' }).WHISPER_PORT).toBe('10301');
    const bad: Record<string, string>[] = [
      { WHISPER_PORT: '70000' },
      { WHISPER_MODEL: 'huge' },
      { NOT_A_FIELD: 'x' },
    ];
    for (const settings of bad) {
      expect(() => resolveSettings(whisper, settings)).toThrow(HttpError);
    }
  });
});
