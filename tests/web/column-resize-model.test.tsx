// @vitest-environment jsdom
// Model-based test of the column-resize machine through the asset table's ULI column: arrow keys
// on its resize handle (10 px a step, announced, cleared after 300 ms) and a pointer drag.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { columnResizeMachine, type ColumnResizeEvent } from '../../machines/column-resize';
import { ANNOUNCEMENT_CLEAR_MS } from '../../src/domain/constants';
import { COLUMN_RESIZE_TEXTS } from '../../src/domain/texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/column-resize';
import { sampleLoanPage } from '../support/loan-list-fixtures';
import { openAssetScreen } from './support/assets-screen';

const walker = createModelWalker(columnResizeMachine, walk);

const handle = () => screen.getByRole('separator', { name: COLUMN_RESIZE_TEXTS.handle('ULI') });
const width = () => Number(handle().getAttribute('aria-valuenow'));
const announcement = () => screen.getByTestId('column-resize-announcement').textContent;

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/assets-screen')]);
});

describe('column-resize machine, driven through the ULI column of the asset table', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openAssetScreen();
      await calls.settle('listLoans', { value: sampleLoanPage(0, 10, 25) });
      await screen.findByRole('separator', { name: COLUMN_RESIZE_TEXTS.handle('ULI') });
      // The announcement's clearing delay runs on a fake clock from here on.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await path.test({
        states: {
          quiet: () => expect(announcement()).toBe(''),
          // The last keyboard step's width (a drag since does not speak).
          announcing: () => expect(announcement()).toMatch(/^ULI column width \d+ pixels$/),
        },
        events: {
          'column.resizeBy': ({ event }) => {
            const { steps } = event as Extract<ColumnResizeEvent, { type: 'column.resizeBy' }>;
            const before = width();
            handle().focus();
            fireEvent.keyDown(handle(), { key: steps > 0 ? 'ArrowRight' : 'ArrowLeft' });
            expect(width()).toBe(before + steps * 10);
            expect(announcement()).toBe(COLUMN_RESIZE_TEXTS.announcement('ULI', width()));
          },
          'column.setSizes': () => {
            const before = width();
            fireEvent.mouseDown(handle(), { clientX: 300 });
            fireEvent.mouseMove(document, { clientX: 350 });
            fireEvent.mouseUp(document, { clientX: 350 });
            expect(width()).toBe(before + 50);
          },
          'after: announcementClear': () => act(() => vi.advanceTimersByTime(ANNOUNCEMENT_CLEAR_MS)),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
