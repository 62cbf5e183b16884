import { z } from 'zod';

/**
 * One finding of a check screen (the Jetson check, the setup wizard's network check, the hub's
 * self-test): what was looked at, how it went, and what to do about it.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail'] as const;
export const checkStatusSchema = z.enum(CHECK_STATUSES);
export type CheckStatus = z.infer<typeof checkStatusSchema>;

export const diagnosticCheckSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: checkStatusSchema,
  /** What was found, in a sentence. */
  detail: z.string(),
  /** What to do about a warn or fail (often a command to run on the hub); null when nothing is needed. */
  fix: z.string().nullable(),
});
export type DiagnosticCheck = z.infer<typeof diagnosticCheckSchema>;

export const checkSummarySchema = z.object({ pass: z.number(), warn: z.number(), fail: z.number() });
export type CheckSummary = z.infer<typeof checkSummarySchema>;

export function summarizeChecks(checks: readonly { status: CheckStatus }[]): CheckSummary {
  const summary: CheckSummary = { pass: 0, warn: 0, fail: 0 };
  for (const check of checks) summary[check.status] += 1;
  return summary;
}

/** `GET /api/diagnostics/jetson` (admin): the hub's hardware and JetPack, read from the host's files. */
export const jetsonReportSchema = z.object({
  generatedAt: z.string(),
  /** Where the agent read the host's files (NEXUS_HOST_ROOT). */
  hostRoot: z.string(),
  isJetson: z.boolean(),
  board: z.object({
    /** /proc/device-tree/model, e.g. "NVIDIA Jetson Orin Nano Developer Kit". */
    model: z.string().nullable(),
    /** The Tegra SoC from the device tree's compatible list, e.g. tegra234. */
    soc: z.string().nullable(),
    /** The SoC's family name, e.g. Orin. */
    family: z.string().nullable(),
  }),
  l4t: z
    .object({
      /** e.g. 36.4.0 */
      release: z.string(),
      /** Where it was read: /etc/nv_tegra_release, or the nvidia-l4t-core package. */
      source: z.enum(['nv_tegra_release', 'package']),
      /** The first line of /etc/nv_tegra_release as written, when that was the source. */
      raw: z.string().nullable(),
    })
    .nullable(),
  jetpack: z
    .object({
      version: z.string(),
      /**
       * package: the installed nvidia-jetpack package says so; exact: the L4T release is in the
       * table; major: only the L4T major release was known, so the version is approximate.
       */
      match: z.enum(['package', 'exact', 'major']),
    })
    .nullable(),
  cuda: z
    .object({ version: z.string(), source: z.enum(['version.json', 'version.txt', 'directory']) })
    .nullable(),
  powerMode: z
    .object({
      current: z.object({ id: z.number(), name: z.string().nullable() }).nullable(),
      defaultId: z.number().nullable(),
      modes: z.array(z.object({ id: z.number(), name: z.string() })),
    })
    .nullable(),
  clocks: z.object({
    cpus: z.array(
      z.object({
        cpu: z.number(),
        online: z.boolean(),
        curMHz: z.number().nullable(),
        minMHz: z.number().nullable(),
        maxMHz: z.number().nullable(),
        governor: z.string().nullable(),
      }),
    ),
    gpu: z
      .object({
        name: z.string(),
        curMHz: z.number().nullable(),
        minMHz: z.number().nullable(),
        maxMHz: z.number().nullable(),
      })
      .nullable(),
  }),
  thermal: z.array(
    z.object({
      zone: z.string(),
      type: z.string(),
      /** °C; null when the zone cannot be read now. */
      tempC: z.number().nullable(),
      /** The lowest passive (throttling) trip point, °C. */
      throttleC: z.number().nullable(),
      /** The critical trip point (shutdown), °C. */
      criticalC: z.number().nullable(),
      /** false for zones known to report a fixed value rather than a measurement. */
      measured: z.boolean(),
    }),
  ),
  powerRails: z.array(
    z.object({
      name: z.string(),
      voltageV: z.number().nullable(),
      currentA: z.number().nullable(),
      powerW: z.number().nullable(),
    }),
  ),
  containerRuntime: z.object({
    /** Where nvidia-container-runtime was found on the host, if anywhere. */
    nvidiaRuntimeBinary: z.string().nullable(),
    /** Runtimes registered in /etc/docker/daemon.json. */
    dockerRuntimes: z.array(z.string()),
    defaultRuntime: z.string().nullable(),
    /** A CDI specification for the GPU (Podman, containerd), if present. */
    cdiSpec: z.string().nullable(),
  }),
  memory: z
    .object({
      totalBytes: z.number(),
      availableBytes: z.number(),
      swapTotalBytes: z.number(),
      swapFreeBytes: z.number(),
    })
    .nullable(),
  disks: z.array(
    z.object({
      label: z.string(),
      path: z.string(),
      totalBytes: z.number(),
      availableBytes: z.number(),
    }),
  ),
  checks: z.array(diagnosticCheckSchema),
  summary: checkSummarySchema,
});
export type JetsonReport = z.infer<typeof jetsonReportSchema>;
