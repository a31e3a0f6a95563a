// The main pool's size (DATABASE_POOL_SIZE): 2 per core and 1, at least 5, unless configured.
import { describe, expect, it } from 'vitest';
import { defaultDatabasePoolSize, parseConfig } from '../../src/server/config';

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 2 connections per core and 1, at least 5', () => {
    expect([1, 2, 4, 8].map((cores) => defaultDatabasePoolSize(cores))).toEqual([5, 5, 9, 17]);
    expect(parseConfig({}).databasePoolSize).toBe(defaultDatabasePoolSize());
  });

  it('takes a configured size from 2 to 200 and refuses others', () => {
    expect(parseConfig({ DATABASE_POOL_SIZE: '24' }).databasePoolSize).toBe(24);
    for (const size of ['1', '201', 'ten']) expect(() => parseConfig({ DATABASE_POOL_SIZE: size })).toThrow(/DATABASE_POOL_SIZE/);
  });
});
