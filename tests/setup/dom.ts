// Matchers for Testing Library; harmless in the node environment.
import '@testing-library/jest-dom/vitest';
