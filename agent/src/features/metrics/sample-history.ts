import type { MetricSample } from '../../contract/system.js';

/** The sample's plain numbers, one column each. */
const NUMBERS = [
  't',
  'cpu',
  'memUsed',
  'memTotal',
  'memPercent',
  'swapUsed',
  'swapTotal',
  'netRx',
  'netTx',
  'diskRead',
  'diskWrite',
  'agentCpu',
  'agentRss',
  'agentHeap',
] as const satisfies readonly (keyof MetricSample)[];
type NumberField = (typeof NUMBERS)[number];
/** Slots a new history starts with (about a minute of 1 s samples). */
const INITIAL_SLOTS = 64;

/**
 * One window of the sampler's history (the last hour at 1 s, the last day at 1 min), oldest
 * first; pushing onto a full history overwrites the oldest sample.
 *
 * Kept in columns of numbers rather than one object per sample: 5,040 sample objects, each with
 * its per-core, load-average and sensor members, held 2–3 MB of an idle hub's heap once the
 * first hour had filled (more on a Jetson, with six cores and a dozen sensors), for figures that
 * take 8 bytes each in a Float64Array. A sample is built again when it is read: a window's
 * series (a chart's first load), not the status polls, which read the newest sample as it was
 * pushed. Absent values (no CPU temperature, a sensor missing from one reading) are NaN. The
 * columns grow with the history (doubling up to the capacity), so a hub that has just started
 * holds a few minutes' worth, not a day's.
 */
export class SampleHistory {
  /** Slots allocated in every column: grows to the capacity while the history fills. */
  private allocated: number;
  private numbers: Record<NumberField, Float64Array>;
  private load: Float64Array[];
  private cpuTemp: Float64Array;
  private coreCount: Uint16Array;
  /** Per core index, per slot. */
  private cores: Float64Array[] = [];
  /** Per sensor label, per slot; NaN where that reading had no such sensor. */
  private readonly temps = new Map<string, Float64Array>();
  private start = 0;
  private count = 0;
  private newest: MetricSample | undefined;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.allocated = Math.min(capacity, INITIAL_SLOTS);
    const column = () => new Float64Array(this.allocated);
    this.numbers = Object.fromEntries(NUMBERS.map((f) => [f, column()])) as Record<NumberField, Float64Array>;
    this.load = [column(), column(), column()];
    this.cpuTemp = column();
    this.coreCount = new Uint16Array(this.allocated);
  }

  /** Makes room for `slot`. Until the history is full its samples fill slots 0, 1, 2… in order. */
  private reserve(slot: number): void {
    if (slot < this.allocated) return;
    const size = Math.min(this.capacity, this.allocated * 2);
    const grow = <A extends Float64Array | Uint16Array>(old: A, fill = 0): A => {
      const next = new (old.constructor as new (n: number) => A)(size);
      next.set(old);
      if (fill !== 0) next.fill(fill, old.length);
      return next;
    };
    for (const field of NUMBERS) this.numbers[field] = grow(this.numbers[field]);
    this.load = this.load.map((c) => grow(c));
    this.cpuTemp = grow(this.cpuTemp);
    this.coreCount = grow(this.coreCount);
    this.cores = this.cores.map((c) => grow(c));
    for (const [label, c] of this.temps) this.temps.set(label, grow(c, Number.NaN));
    this.allocated = size;
  }

  get size(): number {
    return this.count;
  }

  push(sample: MetricSample): void {
    const slot = (this.start + this.count) % this.capacity;
    this.reserve(slot);
    if (this.count < this.capacity) this.count++;
    else this.start = (this.start + 1) % this.capacity;

    for (const field of NUMBERS) this.numbers[field][slot] = sample[field];
    const [one, five, fifteen] = sample.load;
    this.load[0]![slot] = one;
    this.load[1]![slot] = five;
    this.load[2]![slot] = fifteen;
    this.cpuTemp[slot] = sample.cpuTemp ?? Number.NaN;
    this.coreCount[slot] = sample.cores.length;
    for (let i = 0; i < sample.cores.length; i++) {
      this.cores[i] ??= new Float64Array(this.allocated);
      this.cores[i]![slot] = sample.cores[i]!;
    }
    for (const column of this.temps.values()) column[slot] = Number.NaN;
    for (const [label, value] of Object.entries(sample.temps)) {
      let column = this.temps.get(label);
      if (!column) {
        column = new Float64Array(this.allocated).fill(Number.NaN);
        this.temps.set(label, column);
      }
      column[slot] = value;
    }
    this.newest = sample;
  }

  /** The newest sample, as it was pushed. */
  last(): MetricSample | undefined {
    return this.count ? this.newest : undefined;
  }

  /** Every sample, oldest first. */
  toArray(): MetricSample[] {
    return this.samplesFrom(0);
  }

  /** The samples taken after `t` (ms since the epoch), oldest first. */
  since(t: number): MetricSample[] {
    const times = this.numbers.t;
    let first = this.count;
    while (first > 0 && times[(this.start + first - 1) % this.capacity]! > t) first--;
    return this.samplesFrom(first);
  }

  private samplesFrom(first: number): MetricSample[] {
    const out: MetricSample[] = [];
    for (let i = first; i < this.count; i++) out.push(this.sampleAt((this.start + i) % this.capacity));
    return out;
  }

  private sampleAt(slot: number): MetricSample {
    const n = this.numbers;
    const temps: Record<string, number> = {};
    for (const [label, column] of this.temps) {
      if (!Number.isNaN(column[slot]!)) temps[label] = column[slot]!;
    }
    const cpuTemp = this.cpuTemp[slot]!;
    return {
      t: n.t[slot]!,
      cpu: n.cpu[slot]!,
      cores: Array.from({ length: this.coreCount[slot]! }, (_, i) => this.cores[i]![slot]!),
      load: [this.load[0]![slot]!, this.load[1]![slot]!, this.load[2]![slot]!],
      memUsed: n.memUsed[slot]!,
      memTotal: n.memTotal[slot]!,
      memPercent: n.memPercent[slot]!,
      swapUsed: n.swapUsed[slot]!,
      swapTotal: n.swapTotal[slot]!,
      netRx: n.netRx[slot]!,
      netTx: n.netTx[slot]!,
      diskRead: n.diskRead[slot]!,
      diskWrite: n.diskWrite[slot]!,
      cpuTemp: Number.isNaN(cpuTemp) ? null : cpuTemp,
      temps,
      agentCpu: n.agentCpu[slot]!,
      agentRss: n.agentRss[slot]!,
      agentHeap: n.agentHeap[slot]!,
    };
  }
}
