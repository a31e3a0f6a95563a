// The explorer's clock (XState's `clock` option): delayed transitions wait until the owner fires
// them, one at a time, in the order they are due.
/** A clock whose timers run only when the owner advances it. */
export class ManualClock {
  now = 0;
  private nextId = 0;
  readonly timers = new Map<number, { due: number; fn: () => void }>();
  setTimeout(fn: () => void, timeout: number): number {
    this.nextId += 1;
    this.timers.set(this.nextId, { due: this.now + timeout, fn });
    return this.nextId;
  }
  clearTimeout(id: number): void {
    this.timers.delete(id);
  }
  next(): [number, { due: number; fn: () => void }] | undefined {
    return [...this.timers.entries()].sort((a, b) => a[1].due - b[1].due || a[0] - b[0])[0];
  }
  fireNext(): void {
    const next = this.next();
    if (!next) return;
    this.timers.delete(next[0]);
    this.now = next[1].due;
    next[1].fn();
  }
}
