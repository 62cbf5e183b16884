import { describe, expect, it } from 'vitest';
import { renderJsonTemplate, renderTemplate } from './flow-template.js';

const context = {
  trigger: { text: 'hello', items: [{ n: 1 }, { n: 2 }], nested: { a: true } },
  stages: { stt: { text: 'turn on the "kitchen" light' } },
};

describe('renderTemplate', () => {
  it('fills placeholders from the trigger and earlier stages', () => {
    expect(renderTemplate('{{trigger.text}} / {{ stages.stt.text }}', context)).toBe(
      'hello / turn on the "kitchen" light',
    );
  });

  it('reads array items and renders objects as JSON', () => {
    expect(renderTemplate('{{trigger.items[1].n}} {{trigger.nested}}', context)).toBe('2 {"a":true}');
  });

  it('renders missing values and prototype names as empty', () => {
    expect(renderTemplate('[{{trigger.nope.deeper}}][{{trigger.constructor}}]', context)).toBe('[][]');
  });
});

describe('renderJsonTemplate', () => {
  it('escapes values so the JSON stays valid', () => {
    const rendered = renderJsonTemplate('{"say": "{{stages.stt.text}}"}', context);
    expect(JSON.parse(rendered)).toEqual({ say: 'turn on the "kitchen" light' });
  });
});
