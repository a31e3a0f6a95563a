import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { clampWidth, columnResizeMachine, selectAnnouncement, selectColumnSizes } from '../../machines/column-resize';
import { ANNOUNCEMENT_CLEAR_MS } from '../../src/domain/constants';

const start = () => createActor(columnResizeMachine, { input: { sizes: { uli: 200, owner: 60 } } }).start();

describe('column resize machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resizes by 10 px a key step and announces the width, cleared after 300 ms', () => {
    const actor = start();
    actor.send({ type: 'column.resizeBy', columnId: 'uli', label: 'ULI', steps: 1 });
    expect(selectColumnSizes(actor.getSnapshot()).uli).toBe(210);
    expect(selectAnnouncement(actor.getSnapshot())).toBe('ULI column width 210 pixels');
    vi.advanceTimersByTime(ANNOUNCEMENT_CLEAR_MS - 1);
    actor.send({ type: 'column.resizeBy', columnId: 'uli', label: 'ULI', steps: -2 });
    vi.advanceTimersByTime(ANNOUNCEMENT_CLEAR_MS - 1);
    expect(selectAnnouncement(actor.getSnapshot())).toBe('ULI column width 190 pixels');
    vi.advanceTimersByTime(1);
    expect(selectAnnouncement(actor.getSnapshot())).toBe('');
    expect(actor.getSnapshot().matches('quiet')).toBe(true);
  });

  it('keeps widths between 50 and 1000 px', () => {
    const actor = start();
    actor.send({ type: 'column.resizeBy', columnId: 'owner', label: 'Owner', steps: -5 });
    expect(selectColumnSizes(actor.getSnapshot()).owner).toBe(50);
    actor.send({ type: 'column.resizeBy', columnId: 'owner', label: 'Owner', steps: 500 });
    expect(selectColumnSizes(actor.getSnapshot()).owner).toBe(1000);
    expect(clampWidth(12.4)).toBe(50);
    expect(clampWidth(123.6)).toBe(124);
  });

  it('takes pointer widths, clamped, for known columns only; unknown columns are refused', () => {
    const actor = start();
    actor.send({ type: 'column.setSizes', sizes: { uli: 1400, owner: 75, nope: 300 } });
    expect(selectColumnSizes(actor.getSnapshot())).toEqual({ uli: 1000, owner: 75 });
    expect(selectAnnouncement(actor.getSnapshot())).toBe('');
    actor.send({ type: 'column.resizeBy', columnId: 'nope', label: 'Nope', steps: 1 });
    expect(actor.getSnapshot().matches('quiet')).toBe(true);
    expect(selectColumnSizes(actor.getSnapshot())).toEqual({ uli: 1000, owner: 75 });
  });
});
