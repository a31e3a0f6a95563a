// Defect 6: scrypt at OWASP's minimum cost for new hashes; older hashes still verify and
// are brought to the current cost at the next successful sign-in.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, scryptParamsOf, verifyPassword } from '../../src/server/identity/passwords';
import { useRouteTest } from './support/route-test';
import { insertIdentity, PASSWORD, signIn, TEST_SCRYPT } from './support/server-fixtures';

describe('password hashes', () => {
  it('hashes at N=2^17, r=8, p=1 by default, and verifies it', async () => {
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hashPassword('a long enough passphrase');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await verifyPassword('a long enough passphrase', stored)).toBe(true);
    expect(await verifyPassword('another passphrase', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('still verifies hashes of older, cheaper parameters, and marks them for a rehash', async () => {
    for (const params of [
      { N: 1024, r: 8, p: 1 },
      { N: 32768, r: 8, p: 1 },
    ]) {
      const stored = await hashPassword('old secret', params);
      expect(scryptParamsOf(stored)).toEqual(params);
      expect(await verifyPassword('old secret', stored)).toBe(true);
      expect(await verifyPassword('Old secret', stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
      expect(needsRehash(stored, params)).toBe(false);
    }
  });

  it('refuses what is not one of its hashes', async () => {
    for (const stored of ['', 'plain', 'scrypt$0$8$1$AA$AA', 'scrypt$4194304$8$1$AA$AA', 'bcrypt$1024$8$1$AA$AA']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
    expect(needsRehash('plain')).toBe(true);
  });
});

describe('rehash at sign-in', () => {
  const server = useRouteTest();

  const storedHashOf = async (email: string) =>
    (await server.db.select().from(schema.identities).where(eq(schema.identities.email, email)))[0]?.passwordHash ?? '';

  it('brings a hash made at N=1024 to the default cost at a successful sign-in', async () => {
    const { app } = await server.otherApp({ app: { passwordHashParams: undefined } });
    await insertIdentity(server.db, { email: 'legacy@registry.test' });
    expect(scryptParamsOf(await storedHashOf('legacy@registry.test'))).toEqual(TEST_SCRYPT);

    // A failed sign-in changes nothing.
    expect((await signIn(app, 'legacy@registry.test', { password: 'wrong password' })).response.statusCode).toBe(401);
    expect(scryptParamsOf(await storedHashOf('legacy@registry.test'))).toEqual(TEST_SCRYPT);

    expect((await signIn(app, 'legacy@registry.test')).response.statusCode).toBe(303);
    const rehashed = await storedHashOf('legacy@registry.test');
    expect(scryptParamsOf(rehashed)).toEqual(DEFAULT_SCRYPT_PARAMS);
    expect(await verifyPassword(PASSWORD, rehashed)).toBe(true);
    // Signing in again keeps it.
    expect((await signIn(app, 'legacy@registry.test')).response.statusCode).toBe(303);
    expect(await storedHashOf('legacy@registry.test')).toBe(rehashed);
  });

  it('uses the configured target cost (the suite keeps it cheap)', async () => {
    const { app } = await server.otherApp({ app: { passwordHashParams: { N: 2048, r: 8, p: 1 } } });
    await insertIdentity(server.db, { email: 'configured@registry.test' });
    expect((await signIn(app, 'configured@registry.test')).response.statusCode).toBe(303);
    const rehashed = await storedHashOf('configured@registry.test');
    expect(scryptParamsOf(rehashed)).toEqual({ N: 2048, r: 8, p: 1 });
    expect(await verifyPassword(PASSWORD, rehashed)).toBe(true);
    // Concurrent sign-ins of one legacy hash: one rehashes, all get in.
    await insertIdentity(server.db, { email: 'crowd@registry.test' });
    const crowd = await Promise.all(Array.from({ length: 4 }, () => signIn(app, 'crowd@registry.test')));
    expect(crowd.map(({ response }) => response.statusCode)).toEqual([303, 303, 303, 303]);
    expect(scryptParamsOf(await storedHashOf('crowd@registry.test'))).toEqual({ N: 2048, r: 8, p: 1 });
    const [event] = await server.db.select().from(schema.securityEvents).where(eq(schema.securityEvents.email, 'configured@registry.test'));
    expect(event).toMatchObject({ kind: 'sign-in.success', detail: { rehashed: true } });
  });
});
