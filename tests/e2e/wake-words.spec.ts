import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { wakeWordSampleSchema, wakeWordSchema } from '../../agent/src/contract/index.js';
import { Recordings } from '../fixtures/recordings.js';
import { fakeMicrophone } from '../support/chromium.js';
import { setRole } from './shell-helpers.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { expect, test } from './support.js';

/**
 * Chromium's fake microphone plays a file in a loop: here "hey nexus" spoken by espeak-ng, with a
 * second of room noise before and after it (white noise 35 dB under the speech), so a take holds
 * speech, a noise floor and silence to trim, as a person at the browser would give it.
 */
const recordings = new Recordings();
const voice = recordings.addNoise(
  recordings.pad(recordings.speak('hey nexus', { peakDbfs: -6 }), 1, 1.2),
  35,
);

test.use(fakeMicrophone(voice.path));
test.afterAll(() => recordings.cleanup());

const email = `wake-${randomBytes(3).toString('hex')}@example.com`;
const password = 'correct horse battery staple';
let signedUp = false;

test.beforeEach(async ({ page, agent }) => {
  const res = signedUp
    ? await page.request.post('/api/auth/login', { data: { email, password } })
    : await page.request.post('/api/auth/register', { data: { name: 'Wendy Word', email, password } });
  expect(res.ok()).toBe(true);
  // Wake words are created and moderated by admins; this worker's first account may be another spec's.
  if (!signedUp) setRole(agent, email, 'superadmin');
  signedUp = true;
});

async function wakeWordByPhrase(page: Page, phrase: string) {
  const res = await page.request.get('/api/wake-words');
  expect(res.ok()).toBe(true);
  const found = wakeWordSchema
    .array()
    .parse(await res.json())
    .find((w) => w.phrase === phrase);
  expect(found, `wake word "${phrase}"`).toBeDefined();
  return found!;
}

/**
 * Waits until the live level has risen to the voice (the file's speech is near −20 dBFS RMS, its
 * noise near −55) and then stayed at the room's level for half a second, as a person waits a
 * moment after speaking before pressing Stop (a gap between two words is shorter).
 */
async function speechHeardThenEnded(page: Page) {
  const level = async () => {
    const text = (await page.getByTestId('level-rms').textContent()) ?? '';
    return text.endsWith('dBFS') ? Number.parseFloat(text) : -100;
  };
  await expect.poll(level, { intervals: [20], timeout: 10_000 }).toBeGreaterThan(-35);
  let quietSince: number | null = null;
  const quietMs = async () => {
    if ((await level()) > -45) quietSince = null;
    else quietSince ??= Date.now();
    return quietSince === null ? 0 : Date.now() - quietSince;
  };
  await expect.poll(quietMs, { intervals: [20], timeout: 10_000 }).toBeGreaterThan(500);
}

/** The sample rows of a list, not the issue items inside them. */
const rows = (list: Locator) => list.locator(':scope > li');

test('create a wake word, record a guided take that is trimmed, checked and counted, then review it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/wake-words');
  await expect(page.getByRole('heading', { name: 'Wake Word Training', exact: true })).toBeVisible();
  await expect(page.getByText(/No wake words yet/)).toBeVisible();

  await page.getByLabel('Phrase').fill('hey nexus');
  await page.getByRole('button', { name: 'Create' }).click();
  const wakeWords = page.getByRole('list', { name: 'Wake words' });
  await expect(wakeWords.getByText('0 of 50 accepted · 0 to review · 0 rejected')).toBeVisible();
  await expect(page.getByText('No samples yet: record some to see them here.').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await wakeWords.getByRole('link', { name: 'Record samples' }).click();
  await expect(page).toHaveURL(/\/wake-word-training\?wakeWord=\d+$/);
  await expect(page.getByRole('heading', { name: 'Wake Word Model Training' })).toBeVisible();
  await page.getByLabel('Speaker').fill('Alice');
  await page.getByRole('button', { name: 'Record a take' }).click();

  // Countdown, the prompt to speak, then the take stops by itself and comes back checked.
  const prompt = page.getByTestId('training-prompt');
  await expect(prompt).toHaveText(/Get ready… [123]/);
  await expect(prompt).toHaveText('Say “hey nexus” now', { timeout: 5_000 });
  await expect(page.getByRole('meter', { name: 'Input level' })).toBeVisible();
  await expect(page.getByTestId('sample-rate')).toHaveText(/^\d+ Hz$/);
  const takes = page.getByRole('region', { name: 'Takes of this session' });
  await expect(rows(takes.getByRole('list', { name: 'Takes' }))).toHaveCount(1, { timeout: 15_000 });
  await expect(takes.getByText(/ · Alice$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Record another take' })).toBeEnabled();

  // What the agent measured: the voice was heard, above the noise, and the take was trimmed close
  // to the phrase (the file has a second of noise on each side of it).
  const wakeWord = await wakeWordByPhrase(page, 'hey nexus');
  const listed = await page.request.get(`/api/wake-words/${wakeWord.id}/samples`);
  const [sample] = wakeWordSampleSchema.array().parse(await listed.json());
  expect(sample).toBeDefined();
  expect(sample!.speaker).toBe('Alice');
  expect(sample!.source).toBe('recording');
  expect(sample!.quality.speechMs).toBeGreaterThan(300);
  expect(sample!.quality.snrDb).toBeGreaterThan(20);
  expect(sample!.quality.clippingPercent).toBe(0);
  expect(sample!.quality.leadingSilenceMs).toBeLessThan(800);
  expect(sample!.quality.trailingSilenceMs).toBeLessThan(1_000);
  const row = rows(takes.getByRole('list', { name: 'Takes' })).first();
  await expect(row.getByText(sample!.quality.verdict === 'good' ? 'Good' : /Warning|Bad/)).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // The wake word's screen shows the sample; the owner rejects it, then accepts it again.
  await page.goto('/wake-words');
  const samples = page.getByRole('list', { name: 'Samples' });
  await page.getByRole('tab', { name: 'All' }).click();
  await expect(rows(samples)).toHaveCount(1);
  await expect(samples.locator('audio[aria-label^="Sample "]')).toHaveAttribute(
    'src',
    `/api/wake-words/${wakeWord.id}/samples/${sample!.id}/audio`,
  );
  await samples.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('tab', { name: 'Rejected (1)' })).toBeVisible();
  await samples.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('tab', { name: 'Accepted (1)' })).toBeVisible();
  await expect(wakeWords.getByText('1 of 50 accepted · 0 to review · 0 rejected')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'hey nexus: 2 % of the target' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Progress by speaker: Alice 1 accepted$/ })).toBeVisible();

  // The dataset zip of the accepted samples downloads.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download dataset' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);
});

test('engine configurations: the microWakeWord manifest and ESPHome snippet, openWakeWord training YAML', async ({
  page,
}) => {
  await page.request.post('/api/wake-words', { data: { phrase: 'okay hub' } });
  await page.goto('/wake-words');
  await page.getByRole('button', { name: 'okay hub', exact: true }).click();
  const engines = page.getByRole('region', { name: 'okay hub details' });
  await expect(engines.getByRole('tab', { name: 'microWakeWord (ESPHome)' })).toHaveAttribute(
    'data-state',
    'active',
  );
  const manifest = engines.locator('pre').first();
  await expect(manifest).toContainText('"wake_word": "Okay Hub"');
  await expect(manifest).toContainText('"version": 2');
  await expect(engines.getByText('micro_wake_word:').first()).toBeVisible();

  await engines.getByRole('tab', { name: 'openWakeWord (Wyoming)' }).click();
  await expect(engines.getByText(/target_phrase/).first()).toBeVisible();
  await expect(engines.getByText(/okay hub/).first()).toBeVisible();

  const download = page.waitForEvent('download');
  await engines
    .getByRole('button', { name: /^Download .+\.ya?ml$/ })
    .first()
    .click();
  expect((await download).suggestedFilename()).toMatch(/\.ya?ml$/);
});

test('crowdsourcing: a signed-out visitor consents, records, gets a deletion token; the owner moderates', async ({
  page,
  browser,
  agent,
}) => {
  test.setTimeout(60_000);
  const created = await page.request.post('/api/wake-words', { data: { phrase: 'hello hub' } });
  expect(created.status()).toBe(201);
  const wakeWord = wakeWordSchema.parse(await created.json());

  await page.goto('/wake-words');
  await page.getByRole('button', { name: 'hello hub', exact: true }).click();
  const card = page.getByRole('listitem').filter({ hasText: 'hello hub' });
  await card.getByRole('switch', { name: 'Open to crowdsourcing' }).click();
  await expect(card.getByRole('link', { name: `/crowdsource/${wakeWord.slug}` })).toBeVisible();

  const visitorContext = await browser.newContext({ baseURL: agent.url, permissions: ['microphone'] });
  const visitor = await visitorContext.newPage();
  await visitor.goto('/crowdsource');
  await visitor.getByRole('link', { name: 'Contribute' }).first().click();
  await expect(visitor).toHaveURL(new RegExp(`/crowdsource/${wakeWord.slug}$`));
  await expect(visitor.getByText('Before you record “hello hub”')).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'What is recorded' })).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'Licence' })).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'Deletion' })).toBeVisible();
  const proceed = visitor.getByRole('button', { name: 'Continue to recording' });
  await expect(proceed).toBeDisabled();
  await expectNoSeriousAxeViolations(visitor);
  await visitor.getByRole('checkbox').check();
  await proceed.click();

  await visitor.getByLabel('Your name (optional)').fill('Visitor Vee');
  await visitor.getByRole('button', { name: 'Record' }).click();
  await expect(visitor.getByRole('meter', { name: 'Input level' })).toBeVisible();
  // Stop once the phrase has been heard and has ended, as a person would.
  await speechHeardThenEnded(visitor);
  await visitor.getByRole('button', { name: 'Stop' }).click();
  const token = visitor.getByTestId('deletion-token');
  await expect(token).toHaveText(/^\S{20,}$/, { timeout: 10_000 });
  await expect(visitor.getByText("Thank you: your take waits for the owner's review.")).toBeVisible();

  // The owner's moderation queue holds the contribution, named as the visitor gave it.
  await page.reload();
  await page.getByRole('button', { name: 'hello hub', exact: true }).click();
  await page.getByRole('tab', { name: 'Moderation queue' }).click();
  const queue = page.getByRole('list', { name: 'Samples' });
  await expect(rows(queue)).toHaveCount(1);
  await expect(queue.getByText('Crowdsourced')).toBeVisible();
  await expect(queue.getByText(/ · Visitor Vee$/)).toBeVisible();

  // The visitor deletes the take with the token; it leaves the queue.
  await visitor.getByLabel('Deletion token').fill((await token.textContent())!);
  await visitor.getByRole('button', { name: 'Delete my take' }).click();
  await expect(visitor.getByText('Your take is deleted.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'hello hub', exact: true }).click();
  await page.getByRole('tab', { name: 'Moderation queue' }).click();
  await expect(page.getByText('No contributions waiting.', { exact: false })).toBeVisible();
  await visitorContext.close();
});

test('microphone test: live level, noise floor and sample rate, a take played back', async ({ page }) => {
  await page.goto('/mic-test');
  await expect(page.getByRole('heading', { name: 'Microphone Test' })).toBeVisible();
  await page.getByRole('button', { name: 'Open microphone' }).click();
  await expect(page.getByTestId('sample-rate')).toHaveText(/^\d+ Hz$/);
  await expect(page.getByTestId('level-rms')).toHaveText(/dBFS$/);
  await expect(page.getByTestId('noise-floor')).toHaveText(/dBFS$/);
  await page.getByRole('button', { name: 'Record a take' }).click();
  await page.getByRole('button', { name: 'Stop take' }).click();
  await expect(page.getByTestId('take-summary')).toHaveText(
    /^Take: \d+\.\d s, \d+\.\d\d % of samples clipped\.$/,
  );
  await expect(page.locator('audio[aria-label="Playback of the take"]')).toHaveCount(1);
  await expectNoSeriousAxeViolations(page);

  await page.goto('/mic-diagnostic');
  const devices = page.getByRole('list', { name: 'Recording devices' });
  await expect(devices.getByRole('listitem').first()).toBeVisible();
});

test('a household member hears and moderates only their own takes; admins keep the controls', async ({
  browser,
  agent,
  page,
}) => {
  const wakeWord = await wakeWordByPhrase(page, 'hey nexus');
  const memberContext = await browser.newContext({ baseURL: agent.url });
  const member = await memberContext.newPage();
  const registered = await member.request.post('/api/auth/register', {
    data: { name: 'Milo Member', email: `milo-${randomBytes(3).toString('hex')}@example.com`, password },
  });
  expect(registered.ok()).toBe(true);

  await member.goto('/wake-words');
  await expect(member.getByRole('heading', { name: 'Wake Word Training', exact: true })).toBeVisible();
  await expect(member.getByLabel('Phrase')).toHaveCount(0);
  await expect(member.getByRole('switch', { name: 'Open to crowdsourcing' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Delete hey nexus' })).toHaveCount(0);
  await member.getByRole('button', { name: 'hey nexus', exact: true }).click();
  await member.getByRole('tab', { name: 'All' }).click();
  // Alice's take (recorded by the admin's account) is her voice: not listed, not played, not judged.
  await expect(member.getByText('No samples yet: record some on the training screen.')).toBeVisible();
  await expect(member.getByRole('list', { name: 'Samples' })).toHaveCount(0);
  await expect(member.getByRole('tab', { name: 'Moderation queue' })).toHaveCount(0);
  await expect(member.getByRole('link', { name: 'Download dataset' })).toHaveCount(0);
  const aliceTake = (await firstSampleId(page, wakeWord.id))!;
  expect(
    (await member.request.get(`/api/wake-words/${wakeWord.id}/samples/${aliceTake}/audio`)).status(),
  ).toBe(404);
  const refused = await member.request.delete(`/api/wake-words/${wakeWord.id}/samples/${aliceTake}`);
  expect(refused.status()).toBe(404);
  await memberContext.close();
});

async function firstSampleId(page: Page, wakeWordId: number) {
  const res = await page.request.get(`/api/wake-words/${wakeWordId}/samples`);
  return wakeWordSampleSchema.array().parse(await res.json())[0]?.id;
}
