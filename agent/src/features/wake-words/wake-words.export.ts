import type * as Fflate from 'fflate';
import type { Zippable } from 'fflate';
import type * as Yaml from 'yaml';
import { lazyRequire } from '../../lib/lazy-require.js';
import {
  engineExportSchema,
  microWakeWordManifestSchema,
  openWakeWordTrainingSchema,
  porcupineSchema,
  preciseLayoutSchema,
  wyomingOpenWakeWordSchema,
  type Engine,
  type EngineExport,
  type WakeWordSample,
} from '../../contract/wake-words.js';

/** yaml and fflate load with the first export, not at start. */
const yaml = lazyRequire<typeof Yaml>('yaml');
const fflate = lazyRequire<typeof Fflate>('fflate');

/*
 * What each wake-word engine needs to train or deploy the phrase. Field names follow each engine's
 * own files: ESPHome's micro_wake_word v2 manifest, openWakeWord's examples/custom_model.yml and the
 * Wyoming openWakeWord server's options, Mycroft Precise's training folders, Picovoice's console.
 * Every document is parsed with its strict schema before it leaves, so a field an engine does not
 * know never reaches it.
 */

/** microWakeWord: the cut-off its published models use and the 10 ms feature step all v2 models share. */
const MICRO_PROBABILITY_CUTOFF = 0.97;
const MICRO_SLIDING_WINDOW_SIZE = 5;
const MICRO_FEATURE_STEP_SIZE = 10;
/** Enough for the trainer's default MixedNet; ESPHome logs when a model needs more. */
const MICRO_TENSOR_ARENA_SIZE = 30_000;
/** The first ESPHome release that reads v2 manifests. */
const MICRO_MINIMUM_ESPHOME_VERSION = '2024.7.0';
/** Wyoming openWakeWord's defaults, and its usual port. */
const WYOMING_OWW_PORT = 10400;
/** Share of accepted takes that train (the rest test), as Precise's guides suggest. */
const PRECISE_TRAIN_SPLIT = 0.8;

export interface ExportSubject {
  phrase: string;
  slug: string;
  language: string;
  acceptedSamples: number;
  /** Longest accepted speech, for the length of openWakeWord's training clips. */
  longestSpeechMs: number;
  website: string;
}

export function engineExport(subject: ExportSubject, engine: Engine): EngineExport {
  const build = { microwakeword, openwakeword, precise, porcupine }[engine];
  return engineExportSchema.parse(build(subject));
}

/** `hey_nexus`: the identifier form engines use for file and model names. */
function modelName(subject: ExportSubject): string {
  return subject.slug.replace(/-/g, '_');
}

function titleCase(phrase: string): string {
  return phrase.replace(
    /(^|\s)(\p{L})/gu,
    (_, space: string, letter: string) => space + letter.toUpperCase(),
  );
}

function yamlFile(name: string, value: unknown, header: string[] = []) {
  const comments = header.map((line) => `# ${line}\n`).join('');
  return {
    name,
    contentType: 'application/yaml',
    content: comments + yaml().stringify(value, { lineWidth: 0 }),
  };
}

function microwakeword(subject: ExportSubject): EngineExport {
  const name = modelName(subject);
  const manifest = microWakeWordManifestSchema.parse({
    type: 'micro',
    wake_word: titleCase(subject.phrase),
    author: 'Nexus Console',
    website: subject.website,
    model: `${name}.tflite`,
    trained_languages: [subject.language.split('-')[0]],
    version: 2,
    micro: {
      probability_cutoff: MICRO_PROBABILITY_CUTOFF,
      sliding_window_size: MICRO_SLIDING_WINDOW_SIZE,
      feature_step_size: MICRO_FEATURE_STEP_SIZE,
      tensor_arena_size: MICRO_TENSOR_ARENA_SIZE,
      minimum_esphome_version: MICRO_MINIMUM_ESPHOME_VERSION,
    },
  });
  const esphome = {
    micro_wake_word: {
      models: [{ model: `${name}.json`, id: name }],
      on_wake_word_detected: [{ 'voice_assistant.start': {} }],
    },
  };
  return {
    engine: 'microwakeword',
    wakeWord: subject.phrase,
    acceptedSamples: subject.acceptedSamples,
    steps: [
      'Download the dataset (accepted takes as 16 kHz 16-bit mono WAV) and add them to the positive samples of the microWakeWord trainer.',
      `Train; the trainer writes the model, which you save as ${name}.tflite.`,
      `Put ${name}.tflite and ${name}.json side by side (the manifest names the model by its relative path).`,
      'Add the micro_wake_word block to the device\'s ESPHome YAML, pointing "model" at the manifest (a local path, a URL or github://), and flash it.',
      'Raise probability_cutoff when it wakes by mistake, lower it when it misses you.',
    ],
    files: [
      {
        name: `${name}.json`,
        contentType: 'application/json',
        content: `${JSON.stringify(manifest, null, 2)}\n`,
      },
      yamlFile('esphome-micro-wake-word.yaml', esphome, [
        'ESPHome micro_wake_word: add to the device configuration (with its microphone set up).',
      ]),
    ],
  };
}

function openwakeword(subject: ExportSubject): EngineExport {
  const name = modelName(subject);
  // Clips must hold the whole phrase with room around it; 2 s suits short phrases.
  const totalLength = Math.max(32_000, Math.ceil((subject.longestSpeechMs + 1000) / 500) * 8000);
  const training = openWakeWordTrainingSchema.parse({
    model_name: name,
    target_phrase: [subject.phrase],
    custom_negative_phrases: [],
    total_length: totalLength,
    n_samples: 10_000,
    n_samples_val: 2000,
    tts_batch_size: 50,
    augmentation_batch_size: 16,
    piper_sample_generator_path: './piper-sample-generator',
    output_dir: './output',
    rir_paths: ['./mit_rirs'],
    background_paths: ['./background_clips'],
    false_positive_validation_data_path: './validation_set_features.npy',
    augmentation_rounds: 1,
    feature_data_files: { ACAV100M_sample: './openwakeword_features_ACAV100M_2000_hrs_16bit.npy' },
    batch_n_per_class: { ACAV100M_sample: 1024, adversarial_negative: 50, positive: 50 },
    model_type: 'dnn',
    layer_size: 32,
    steps: 50_000,
    max_negative_weight: 1500,
    target_accuracy: 0.7,
    target_recall: 0.5,
    target_false_positives_per_hour: 0.2,
  });
  const wyoming = wyomingOpenWakeWordSchema.parse({
    uri: `tcp://0.0.0.0:${WYOMING_OWW_PORT}`,
    custom_model_dir: '/custom',
    preload_model: name,
    threshold: 0.5,
    trigger_level: 1,
    refractory_seconds: 0.5,
  });
  const args = [
    `--uri ${wyoming.uri}`,
    `--custom-model-dir ${wyoming.custom_model_dir}`,
    `--preload-model ${wyoming.preload_model}`,
    `--threshold ${wyoming.threshold}`,
    `--trigger-level ${wyoming.trigger_level}`,
    `--refractory-seconds ${wyoming.refractory_seconds}`,
  ].join(' ');
  return {
    engine: 'openwakeword',
    wakeWord: subject.phrase,
    acceptedSamples: subject.acceptedSamples,
    steps: [
      `Run openWakeWord's train.py with --training_config ${name}.yml: it generates synthetic takes with Piper and augments them.`,
      `Add real voices: copy the dataset's accepted WAVs into output/${name}/positive_train (and a fifth of them into positive_test) before training.`,
      `Copy the trained ${name}.tflite (or .onnx) into the Wyoming openWakeWord server's custom model folder (/custom below).`,
      `Start the server with: wyoming-openwakeword ${args}`,
      "In Home Assistant, add the Wyoming integration at the server's host and port 10400 and choose the wake word in the voice assistant.",
    ],
    files: [
      yamlFile(`${name}.yml`, training, [
        `openWakeWord training config for "${subject.phrase}" (fields of examples/custom_model.yml).`,
      ]),
      yamlFile('wyoming-openwakeword.yaml', wyoming, [
        'Wyoming openWakeWord server settings (its command-line options).',
      ]),
    ],
  };
}

function precise(subject: ExportSubject): EngineExport {
  const name = subject.slug;
  const layout = preciseLayoutSchema.parse({
    model_name: name,
    sample_rate: 16_000,
    channels: 1,
    bits_per_sample: 16,
    folders: {
      [`${name}/wake-word/`]: `${Math.round(PRECISE_TRAIN_SPLIT * 100)} % of the accepted takes`,
      [`${name}/test/wake-word/`]: `the other ${Math.round((1 - PRECISE_TRAIN_SPLIT) * 100)} %`,
      [`${name}/not-wake-word/`]: 'speech, noise and music that is not the phrase (at least twice as many)',
      [`${name}/test/not-wake-word/`]: 'more of the same, kept for testing',
    },
    train_split: PRECISE_TRAIN_SPLIT,
    commands: [
      `precise-train -e 60 ${name}.net ${name}/`,
      `precise-test ${name}.net ${name}/`,
      `precise-convert ${name}.net`,
    ],
  });
  return {
    engine: 'precise',
    wakeWord: subject.phrase,
    acceptedSamples: subject.acceptedSamples,
    steps: [
      `Unpack the dataset and move the WAVs into the folders below (Precise reads 16 kHz 16-bit mono WAV, as exported).`,
      'Collect not-wake-word audio: other speech, the room, the TV.',
      ...layout.commands.map((command) => `Run: ${command}`),
      `Use ${name}.pb (with ${name}.pb.params) as the wake-word model of the Precise runner.`,
    ],
    files: [yamlFile('precise-layout.yaml', layout, ['Mycroft Precise training folders and commands.'])],
  };
}

function porcupine(subject: ExportSubject): EngineExport {
  const language = subject.language.split('-')[0]!;
  const keywordFile = `${subject.slug}_${language}_linux_v3_0_0.ppn`;
  const info = porcupineSchema.parse({
    phrase: subject.phrase,
    language,
    console_steps: [
      'Sign in to the Picovoice Console and open Porcupine.',
      `Type the phrase "${subject.phrase}" and choose the language ${language}.`,
      'Train it, then download the keyword for your platform (Linux for the Nexus hub; the ZIP holds one .ppn file).',
    ],
    keyword_file: keywordFile,
    placement: `wake-words/porcupine/${keywordFile} under the Nexus data directory`,
    usage: 'Pass the .ppn path in keyword_paths, with your Picovoice AccessKey, to the Porcupine engine.',
  });
  return {
    engine: 'porcupine',
    wakeWord: subject.phrase,
    acceptedSamples: subject.acceptedSamples,
    steps: [
      ...info.console_steps,
      `Place the keyword file at ${info.placement}.`,
      info.usage,
      'Porcupine trains from the text alone: play the accepted takes of the dataset to it to check it wakes for your voices.',
    ],
    files: [
      yamlFile('porcupine.yaml', info, [
        'Porcupine: what to enter in the Picovoice Console and where the keyword file goes.',
      ]),
    ],
  };
}

// --- Dataset -----------------------------------------------------------------------------------

export interface DatasetEntry {
  sample: WakeWordSample;
  wav: Uint8Array;
}

const CSV_COLUMNS = [
  'file',
  'id',
  'device',
  'speaker',
  'source',
  'verdict',
  'durationMs',
  'speechMs',
  'snrDb',
  'rmsDbfs',
  'peakDbfs',
  'clippingPercent',
  'leadingSilenceMs',
  'trailingSilenceMs',
  'createdAt',
] as const;

/** A zip of the accepted takes plus manifest.csv and manifest.json (device, speaker, quality). */
export function datasetZip(
  subject: { phrase: string; slug: string; language: string },
  entries: DatasetEntry[],
): Uint8Array {
  const files: Zippable = {};
  const rows = entries.map(({ sample, wav }) => {
    const file = `wav/${sample.id}.wav`;
    // WAV hardly compresses; storing keeps the export fast.
    files[file] = [wav, { level: 0 }];
    return { file, sample };
  });
  const csvRows = rows.map(({ file, sample }) => {
    const q = sample.quality;
    const values: Record<(typeof CSV_COLUMNS)[number], string | number | null> = {
      file,
      id: sample.id,
      device: spreadsheetSafe(sample.device),
      speaker: spreadsheetSafe(sample.speaker),
      source: sample.source,
      verdict: q.verdict,
      durationMs: q.durationMs,
      speechMs: q.speechMs,
      snrDb: q.snrDb,
      rmsDbfs: q.rmsDbfs,
      peakDbfs: q.peakDbfs,
      clippingPercent: q.clippingPercent,
      leadingSilenceMs: q.leadingSilenceMs,
      trailingSilenceMs: q.trailingSilenceMs,
      createdAt: sample.createdAt,
    };
    return CSV_COLUMNS.map((column) => csvField(values[column])).join(',');
  });
  const { strToU8, zipSync } = fflate();
  files['manifest.csv'] = strToU8(`${[CSV_COLUMNS.join(','), ...csvRows].join('\r\n')}\r\n`);
  files['manifest.json'] = strToU8(
    `${JSON.stringify(
      {
        wakeWord: subject.phrase,
        slug: subject.slug,
        language: subject.language,
        format: { sampleRate: 16_000, channels: 1, bitsPerSample: 16 },
        samples: rows.map(({ file, sample }) => ({
          file,
          id: sample.id,
          device: sample.device,
          speaker: sample.speaker,
          source: sample.source,
          createdAt: sample.createdAt,
          quality: sample.quality,
        })),
      },
      null,
      2,
    )}\n`,
  );
  return zipSync({ [subject.slug]: files });
}

/** RFC 4180: quote fields holding a comma, quote or line break; double the quotes inside. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Names typed by people could start a spreadsheet formula (=, +, -, @): a leading quote keeps them text. */
function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
