/**
 * How the browser tests launch Debian's Chromium (Playwright cannot download its own here). Without
 * the background-networking flags Chromium keeps trying to reach the closed network.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launch options for a spec whose "person at the browser" speaks through Chromium's fake
 * microphone: `audioFile` (a WAV file) is played into every capture, in a loop, with the
 * permission prompt answered yes.
 */
export function fakeMicrophone(audioFile: string) {
  return {
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
        `--use-file-for-fake-audio-capture=${audioFile}`,
      ],
    },
    permissions: ['microphone'],
  };
}
