import { describe, expect, it } from 'vitest';
import { configErrors } from './components/stage-form';
import { parseTypedInput } from './components/run-panel';

describe('the builder’s stage forms', () => {
  it('report the contract schema’s errors by field', () => {
    expect(configErrors('llm', { prompt: '' })).toEqual({ prompt: 'Write a prompt' });
    expect(configErrors('ha_call', { domain: 'Light!', service: 'turn_on' }).domain).toMatch(/lower-case/);
    expect(configErrors('notify', { title: 'Done', level: 'info' })).toEqual({});
    expect(
      configErrors('http_request', { url: 'https://x', headers: [{ name: 'bad header' }] }),
    ).toHaveProperty('headers.0.name');
  });
});

describe('typed run input', () => {
  it('is JSON when it parses, otherwise { text }', () => {
    expect(parseTypedInput('{"a": 1}')).toEqual({ a: 1 });
    expect(parseTypedInput('turn on the light')).toEqual({ text: 'turn on the light' });
    expect(parseTypedInput('   ')).toBeUndefined();
  });
});
