import fs from 'node:fs';
import path from 'node:path';

/*
 * The audio kept with voice runs, under <data>/flows/clips: what a satellite or a person said
 * (<runId>.wav) and what a TTS stage answered (<runId>-speech.wav). People's voices: written for
 * the agent alone, and deleted with their runs. One module owns the directory and its file names
 * so that writing, reading and pruning cannot disagree about them.
 */

const CLIPS_DIR = 'flows/clips';

export function createClipStore(dataDir: string) {
  const clipsDir = path.join(dataDir, CLIPS_DIR);
  // basename: a stored file name never leads out of the directory.
  const clipPath = (file: string) => path.join(clipsDir, path.basename(file));

  function write(file: string, audio: Buffer) {
    // The agent's alone, like the data directory (0700/0600 whatever the umask allows).
    fs.mkdirSync(clipsDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(clipPath(file), audio, { mode: 0o600 });
  }

  const speechFile = (runId: number) => `${runId}-speech.wav`;

  return {
    /** Keeps what the run heard; returns the file name the run records. */
    keepClip(runId: number, audio: Buffer): string {
      const clipFile = `${runId}.wav`;
      write(clipFile, audio);
      return clipFile;
    },

    /** Keeps what the run's TTS said. */
    keepSpeech(runId: number, wav: Buffer) {
      write(speechFile(runId), wav);
    },

    /** The file name of what the run's TTS said. */
    speechFile,

    /** The file's audio; throws when it is gone. */
    read(file: string): Buffer {
      return fs.readFileSync(clipPath(file));
    },

    /** The file's audio, or null when it is gone (a retry or replay then runs without it). */
    readOrNull(file: string): Buffer | null {
      try {
        return fs.readFileSync(clipPath(file));
      } catch {
        return null;
      }
    },

    /** Deletes the audio kept with these runs (their clips and what TTS said). */
    removeAudio(runIds: number[]) {
      for (const id of runIds) {
        fs.rm(clipPath(`${id}.wav`), { force: true }, () => undefined);
        fs.rm(clipPath(speechFile(id)), { force: true }, () => undefined);
      }
    },
  };
}

export type ClipStore = ReturnType<typeof createClipStore>;
