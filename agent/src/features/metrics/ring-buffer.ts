/** A fixed-capacity FIFO: pushing onto a full buffer overwrites the oldest item. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    const end = (this.start + this.count) % this.capacity;
    this.items[end] = item;
    if (this.count < this.capacity) this.count++;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** The newest item, if any. */
  last(): T | undefined {
    return this.count ? this.items[(this.start + this.count - 1) % this.capacity] : undefined;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out = new Array<T>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.items[(this.start + i) % this.capacity] as T;
    return out;
  }

  /** The newest items that satisfy `keep`, scanning back from the newest and stopping at the first that does not; oldest first. */
  takeLastWhile(keep: (item: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = this.count - 1; i >= 0; i--) {
      const item = this.items[(this.start + i) % this.capacity] as T;
      if (!keep(item)) break;
      out.push(item);
    }
    return out.reverse();
  }

  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
