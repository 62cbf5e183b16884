import { blockLevels, NoiseFloorTracker, toDbfs } from './levels';

/**
 * Raw microphone audio: wake-word models must hear what a satellite's microphone hears, not a
 * voice-call cleanup of it.
 */
export const RAW_AUDIO_CONSTRAINTS = {
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
} as const;

/** Samples the capture worklet collects before posting them (about 43 ms at 48 kHz). */
const CHUNK_SAMPLES = 2048;
/** How long the clipping light stays on after a clipped block. */
const CLIP_HOLD_MS = 1000;

export interface MicLevels {
  rmsDbfs: number;
  peakDbfs: number;
  /** A block clipped within the last second. */
  clipping: boolean;
  /** The room's level (low percentile of recent blocks); null until a few blocks are in. */
  noiseFloorDbfs: number | null;
}

export interface MicSettings {
  sampleRate: number;
  deviceId: string | undefined;
  label: string;
  channelCount: number | undefined;
  echoCancellation: boolean | undefined;
  noiseSuppression: boolean | undefined;
  autoGainControl: boolean | undefined;
}

export interface Take {
  samples: Float32Array;
  sampleRate: number;
  /** Share of the take's samples at full scale, in percent. */
  clippingPercent: number;
}

export interface Microphone {
  settings: MicSettings;
  startTake(): void;
  stopTake(): Take;
  readonly recording: boolean;
  close(): Promise<void>;
}

/** The AudioWorklet that copies the first input channel out in chunks (served from web/public). */
const CAPTURE_WORKLET_URL = '/capture-worklet.js';

/** Whether this page may use the microphone at all (getUserMedia needs HTTPS or localhost). */
export function microphoneSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    !!navigator.mediaDevices?.getUserMedia &&
    typeof AudioWorkletNode !== 'undefined'
  );
}

/** The browser's recording devices. Labels are empty until the page has been allowed the microphone once. */
export async function listAudioInputs(): Promise<MediaDeviceInfo[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.filter((device) => device.kind === 'audioinput');
}

/** Opens a microphone without processing and reports its levels as they come. */
export async function openMicrophone(
  deviceId: string | undefined,
  onLevels: (levels: MicLevels) => void,
): Promise<Microphone> {
  if (!microphoneSupported()) {
    throw new Error('This browser cannot record here: microphone access needs HTTPS (or localhost).');
  }
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: {
      ...RAW_AUDIO_CONSTRAINTS,
      channelCount: 1,
      ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    },
  });
  const track = stream.getAudioTracks()[0]!;
  const context = new AudioContext();
  await context.audioWorklet.addModule(CAPTURE_WORKLET_URL);
  const source = context.createMediaStreamSource(stream);
  const capture = new AudioWorkletNode(context, 'nexus-capture', {
    processorOptions: { chunkSamples: CHUNK_SAMPLES },
  });
  // A silent path to the output keeps the worklet pulled by the audio graph.
  const mute = context.createGain();
  mute.gain.value = 0;
  source.connect(capture).connect(mute).connect(context.destination);

  const floor = new NoiseFloorTracker();
  let lastClipAt = -Infinity;
  let chunks: Float32Array[] | null = null;
  let clippedInTake = 0;
  capture.port.onmessage = (event: MessageEvent<Float32Array>) => {
    const chunk = event.data;
    const levels = blockLevels(chunk);
    floor.add(levels.rmsDbfs);
    if (levels.clipped > 0) lastClipAt = performance.now();
    if (chunks) {
      chunks.push(chunk);
      clippedInTake += levels.clipped;
    }
    onLevels({
      rmsDbfs: levels.rmsDbfs,
      peakDbfs: levels.peakDbfs,
      clipping: performance.now() - lastClipAt < CLIP_HOLD_MS,
      noiseFloorDbfs: floor.dbfs,
    });
  };

  const trackSettings = track.getSettings();
  return {
    settings: {
      sampleRate: context.sampleRate,
      deviceId: trackSettings.deviceId,
      label: track.label || 'Microphone',
      channelCount: trackSettings.channelCount,
      echoCancellation: trackSettings.echoCancellation,
      noiseSuppression: trackSettings.noiseSuppression,
      autoGainControl: trackSettings.autoGainControl,
    },
    get recording() {
      return chunks !== null;
    },
    startTake() {
      chunks = [];
      clippedInTake = 0;
    },
    stopTake() {
      const taken = chunks ?? [];
      chunks = null;
      const length = taken.reduce((sum, chunk) => sum + chunk.length, 0);
      const samples = new Float32Array(length);
      let offset = 0;
      for (const chunk of taken) {
        samples.set(chunk, offset);
        offset += chunk.length;
      }
      return {
        samples,
        sampleRate: context.sampleRate,
        clippingPercent: length ? (clippedInTake / length) * 100 : 0,
      };
    },
    async close() {
      capture.port.onmessage = null;
      for (const t of stream.getTracks()) t.stop();
      await context.close();
    },
  };
}

/** A level in dBFS as a 0–100 meter position (−60 dBFS and below read as empty). */
export function meterPercent(dbfs: number, floorDbfs = -60): number {
  return Math.max(0, Math.min(100, ((dbfs - floorDbfs) / -floorDbfs) * 100));
}

export { toDbfs };
