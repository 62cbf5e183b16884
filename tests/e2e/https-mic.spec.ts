import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import tls from 'node:tls';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.js';
import type { RunningAgent } from '../support/agent.js';
import { expect, test } from './support.js';

/**
 * Issue 21: the microphone from another device. Chromium opens the hub by its LAN name
 * (`nexus.local`, resolved to loopback: test traffic never leaves 127.0.0.1) over HTTPS with the
 * hub's certificate trusted, and getUserMedia works because the page is a secure context; the same
 * name over plain HTTP is sent to HTTPS. Chromium's fake microphone stands in for a real one.
 */

/** Base64 SHA-256 of the hub certificate's public key (SPKI): what Chromium's trust flag takes. */
function serverSpkiHash(agent: RunningAgent): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port: agent.httpsPort, servername: 'localhost', rejectUnauthorized: false },
      () => {
        const der = socket.getPeerCertificate().raw;
        socket.end();
        const spki = new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' });
        resolve(createHash('sha256').update(spki).digest('base64'));
      },
    );
    socket.once('error', reject);
  });
}

let browser: Browser | undefined;
test.afterAll(async () => {
  await browser?.close();
});

test('over HTTPS by the hub’s LAN name the page is a secure context and the microphone opens; HTTP is redirected', async ({
  agent,
}) => {
  // Trusting the certificate this way is what installing the hub's CA does for a real browser; that
  // the certificate chains to /ca.crt and names every address is checked in tests/integration/tls.test.ts.
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      '--host-resolver-rules=MAP nexus.local 127.0.0.1',
      `--ignore-certificate-errors-spki-list=${await serverSpkiHash(agent)}`,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  });
  const context = await browser.newContext({ permissions: ['microphone'] });
  const page = await context.newPage();
  const secureOrigin = `https://nexus.local:${agent.httpsPort}`;

  // Plain HTTP by the LAN name: sent to the same path on HTTPS.
  await page.goto(`http://nexus.local:${agent.port}/mic-test?from=http`);
  await expect(page).toHaveURL(new RegExp(`^${secureOrigin}/`));
  expect(await page.evaluate(() => window.isSecureContext)).toBe(true);

  // Signed in from the browser itself (the test's own HTTP client cannot resolve nexus.local).
  const registered = await page.evaluate(
    async ({ email }) => {
      const res = await fetch('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Remote Rita', email, password: 'correct horse battery staple' }),
      });
      return res.status;
    },
    { email: `https-${randomBytes(3).toString('hex')}@example.com` },
  );
  expect(registered).toBe(201);
  const cookies = await context.cookies(secureOrigin);
  expect(cookies.find((c) => c.name === 'nexus_session')?.secure).toBe(true);

  await page.goto(`${secureOrigin}/mic-test`);
  await expect(page.getByRole('heading', { name: 'Microphone Test' })).toBeVisible();
  expect(await page.evaluate(() => [window.isSecureContext, location.protocol])).toEqual([true, 'https:']);
  await page.getByRole('button', { name: 'Open microphone' }).click();
  await expect(page.getByTestId('sample-rate')).toHaveText(/^\d+ Hz$/);
  await expect(page.getByTestId('level-rms')).toHaveText(/dBFS$/);
  await page.getByRole('button', { name: 'Record a take' }).click();
  await page.getByRole('button', { name: 'Stop take' }).click();
  await expect(page.getByTestId('take-summary')).toHaveText(/^Take: \d+\.\d s/);

  // Network Info says so, with the CA to install and its fingerprint.
  await page.goto(`${secureOrigin}/network-info`);
  const panel = page.getByRole('region', { name: 'Secure connection (HTTPS)' });
  await expect(panel.getByText('On HTTPS', { exact: true })).toBeVisible();
  const caPem = await page.evaluate(async () => (await fetch('/ca.crt')).text());
  await expect(panel.getByTestId('ca-fingerprint')).toHaveText(new X509Certificate(caPem).fingerprint256);
  await expect(panel.getByRole('link', { name: 'Download the certificate authority' })).toHaveAttribute(
    'href',
    '/ca.crt',
  );
  await context.close();
});

test('on the hub itself over plain HTTP (not redirected), Network Info says so and links to the HTTPS address', async ({
  agent,
  page,
}) => {
  // The hub's own kiosk (loopback) is not redirected: the page tells where HTTPS is.
  const res = await page.request.post('/api/auth/register', {
    data: {
      name: 'Kiosk Kim',
      email: `kiosk-${randomBytes(3).toString('hex')}@example.com`,
      password: 'correct horse battery staple',
    },
  });
  expect(res.ok()).toBe(true);
  await page.goto('/network-info');
  const panel = page.getByRole('region', { name: 'Secure connection (HTTPS)' });
  await expect(panel.getByText('Plain HTTP', { exact: true })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Open the console on HTTPS' })).toHaveAttribute(
    'href',
    `https://127.0.0.1:${agent.httpsPort}/network-info`,
  );
});
