// Matchers for Testing Library; in jsdom, the browser APIs jsdom lacks that Headless UI
// measures with (ResizeObserver, scrollIntoView) become no-ops.
import '@testing-library/jest-dom/vitest';

if (typeof window !== 'undefined') {
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
}
