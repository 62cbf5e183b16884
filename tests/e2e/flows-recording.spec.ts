import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fakeMicrophone } from '../support/chromium.js';
import { expect, test } from './support.js';

/** One second of a 440 Hz tone, 16 kHz 16-bit mono: what Chromium's fake microphone plays in a loop. */
function toneWav(): string {
  const rate = 16_000;
  const samples = rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), 44 + i * 2);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-mic-')), 'tone.wav');
  fs.writeFileSync(file, wav);
  return file;
}

// Chromium's fake microphone, fed a tone, stands in for a person at the browser.
test.use(fakeMicrophone(toneWav()));

test('session simulations: a clip recorded in the browser starts a voice run that keeps it', async ({
  page,
}) => {
  const email = `rec-${randomBytes(3).toString('hex')}@example.com`;
  const res = await page.request.post('/api/auth/register', {
    data: { name: 'Rec Order', email, password: 'correct horse battery staple' },
  });
  expect(res.ok()).toBe(true);
  const flow = await page.request.post('/api/flows', {
    data: {
      name: 'Voice in',
      trigger: { type: 'voice' },
      stages: [{ id: 'vad', name: 'Trim silence', kind: 'vad', config: { minSpeechMs: 0 } }],
    },
  });
  expect(flow.status()).toBe(201);

  await page.goto('/session-simulations');
  await page.getByRole('button', { name: 'Record a clip' }).click();
  const meter = page.getByRole('meter', { name: 'Microphone level' });
  // The tone moves the level meter: audio is coming in.
  await expect(meter).not.toHaveAttribute('aria-valuenow', '0');
  await page.getByRole('button', { name: 'Stop recording' }).click();
  await expect(page.getByText(/^Clip: Recording, \d+\.\d s$/)).toBeVisible();
  await page.getByRole('button', { name: 'Run with the clip' }).click();
  const run = page.locator('[aria-live="polite"]').first();
  await expect(run.getByText(/Voice · version 1/)).toBeVisible();
  await expect(run.locator('audio[aria-label="The clip this run started with"]')).toHaveCount(1);
  // The VAD stage got the clip and finished one way or the other.
  await expect(run.locator('[data-stage-status="succeeded"], [data-stage-status="failed"]')).toHaveCount(1);
});
