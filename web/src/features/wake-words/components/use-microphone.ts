import { useCallback, useEffect, useRef, useState } from 'react';
import { useAudioInputs } from '@/data/wake-words';
import { openMicrophone, type MicLevels, type MicSettings, type Microphone } from '@/lib/audio';

/** The browser's recording devices and one open microphone with its live levels. */
export function useMicrophone() {
  const { devices, refresh: refreshDevices } = useAudioInputs();
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined);
  const [levels, setLevels] = useState<MicLevels | null>(null);
  const [settings, setSettings] = useState<MicSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const mic = useRef<Microphone | null>(null);

  const close = useCallback(async () => {
    const open = mic.current;
    mic.current = null;
    setSettings(null);
    setLevels(null);
    if (open) await open.close();
  }, []);

  const open = useCallback(
    async (id: string | undefined = deviceId) => {
      setOpening(true);
      setError(null);
      try {
        await close();
        const opened = await openMicrophone(id, setLevels);
        mic.current = opened;
        setSettings(opened.settings);
        // Labels appear once the microphone has been allowed.
        await refreshDevices();
        return opened;
      } catch (cause) {
        setError(microphoneError(cause));
        return null;
      } finally {
        setOpening(false);
      }
    },
    [close, deviceId, refreshDevices],
  );

  /** Chooses a recording device; an open microphone moves to it at once. */
  const chooseDevice = useCallback(
    (id: string | undefined) => {
      setDeviceId(id);
      if (mic.current) void open(id);
    },
    [open],
  );

  useEffect(() => {
    const onChange = () => void refreshDevices();
    navigator.mediaDevices?.addEventListener?.('devicechange', onChange);
    return () => {
      navigator.mediaDevices?.removeEventListener?.('devicechange', onChange);
      void close();
    };
  }, [close, refreshDevices]);

  return { devices, deviceId, chooseDevice, levels, settings, error, opening, open, close, mic };
}

function microphoneError(cause: unknown): string {
  if (cause instanceof DOMException) {
    if (cause.name === 'NotAllowedError')
      return 'Microphone access was refused: allow it in the browser and try again.';
    if (cause.name === 'NotFoundError' || cause.name === 'OverconstrainedError') {
      return 'That recording device is not available any more: choose another.';
    }
    if (cause.name === 'NotReadableError') return 'Another program is using the microphone.';
  }
  return cause instanceof Error ? cause.message : 'The microphone could not be opened.';
}
