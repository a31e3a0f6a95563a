// The CSV stream slots: at most perIdentity per identity and perServer in all, given back once.
import { describe, expect, it } from 'vitest';
import { StreamSlots } from '../../src/server/csv/stream-slots';

describe('StreamSlots', () => {
  it("refuses an identity past its own limit, and anyone past the server's", () => {
    const slots = new StreamSlots({ perServer: 3, perIdentity: 2 });
    const a1 = slots.acquire('a');
    const a2 = slots.acquire('a');
    expect(typeof a1).toBe('function');
    expect(typeof a2).toBe('function');
    expect(slots.acquire('a')).toBe('identity');
    const b1 = slots.acquire('b');
    expect(typeof b1).toBe('function');
    expect(slots.acquire('c')).toBe('server');
    // The identity's own limit is told first, even when the server is full too.
    expect(slots.acquire('a')).toBe('identity');
    expect(slots.inUse).toBe(3);
  });

  it('gives a slot back once, however often its release is called', () => {
    const slots = new StreamSlots({ perServer: 2, perIdentity: 2 });
    const first = slots.acquire('a');
    const second = slots.acquire('a');
    if (typeof first !== 'function' || typeof second !== 'function') throw new Error('no slot');
    first();
    first();
    expect(slots.inUse).toBe(1);
    expect(typeof slots.acquire('b')).toBe('function');
    expect(slots.acquire('c')).toBe('server');
    second();
    expect(slots.inUse).toBe(1);
    expect(typeof slots.acquire('a')).toBe('function');
  });
});
