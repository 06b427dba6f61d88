import { endpoints } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources, suppliers, users } from '../../db/schema.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * A gateway's key secret never reaches the server's log: the app logs at 'trace' into a captured
 * stream while the secret is created, replaced, refused with a bad field beside it, and the resource
 * is listed, exported, read and switched. Neither the secret nor its sealed form is in any line.
 */
const R = endpoints.resources;
const SECRET = 'rzp_secret_LOGCANARY_Qw7Zp3';
const ROTATED = 'rzp_secret_LOGCANARY_rotated_Vb4';
const lines: string[] = [];
let t: TestApp;
let supplier: Auth;
let admin: Auth;
let supplierOneId: number;

beforeAll(async () => {
  t = await startTestApp({
    config: { rateLimitFactor: 1000, logLevel: 'trace' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  supplier = await t.loginWithToken2('supplier1');
  admin = await t.loginWithToken2('admin');
  const [row] = await t.database.db
    .select({ id: suppliers.id })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(eq(users.account, 'supplier1'));
  supplierOneId = row!.id;
});
afterAll(() => t.close());

describe('gateway key secret and the log', () => {
  it('never appears in a log line, nor does its sealed value, whatever the calls', async () => {
    const before = lines.length;
    const details = (keySecret?: string) => ({
      baseUrl: 'https://api.razorpay.com',
      keyId: 'rzp_live_LOG1',
      ...(keySecret === undefined ? {} : { keySecret, webhookSecret: `${keySecret}_hook` }),
      accountNumber: '2323230041626905',
    });
    const created = await t.call(
      R.create,
      { productId: 2003, name: 'Razorpay log', details: details(SECRET) },
      supplier,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as number;
    const [stored] = await t.database.db.select().from(resources).where(eq(resources.id, id));
    const sealedFirst = stored!.secretSealed!;
    expect(sealedFirst).toBeTruthy();

    // A refused create and a refused update carry the secret beside a bad field (400 paths).
    const refusedCreate = await t.call(
      R.create,
      { productId: 2003, name: 'bad', details: { ...details(SECRET), accountNumber: '12ab' } },
      supplier,
    );
    expect(refusedCreate.status).toBe(400);
    const refusedUpdate = await t.call(
      R.update,
      { id, productId: 2003, name: 'bad', details: { ...details(ROTATED), accountNumber: 'x' }, unknownField: SECRET },
      admin,
    );
    expect(refusedUpdate.status).toBe(400);
    // Not JSON at all, with the secret inside.
    const notJson = await t.app.inject({
      method: 'POST',
      url: R.update.path,
      headers: { token: admin.token!, 'content-type': 'application/json' },
      payload: `{"id":${id},"details":{"keySecret":"${SECRET}"`,
    });
    expect(notJson.statusCode).toBe(400);

    const kept = await t.call(R.update, { id, productId: 2003, name: 'Razorpay log 2', details: details() }, supplier);
    expect(kept.body.code).toBe(200);
    const rotated = await t.call(
      R.update,
      { id, productId: 2003, name: 'Razorpay log 3', details: details(ROTATED) },
      admin,
    );
    expect(rotated.body.code).toBe(200);
    const [after] = await t.database.db.select().from(resources).where(eq(resources.id, id));
    const sealedRotated = after!.secretSealed!;
    expect(sealedRotated).not.toBe(sealedFirst);

    for (const auth of [supplier, admin]) {
      expect((await t.call(R.getList, { pageIndex: 1, productId: 2003 }, auth)).body.code).toBe(200);
      expect((await t.call(R.getResourceDetailInfo, { resourceId: id, productId: 2003 }, auth)).body.code).toBe(200);
      expect((await downloadCsv(t, R.exportList, { productId: '2003' }, auth)).status).toBe(200);
    }
    expect((await t.call(R.getResourceStaticInfo, { supplierId: supplierOneId, productId: 2003 }, admin)).status).toBe(
      200,
    );
    expect((await t.call(R.enableResource, { resourceId: id, productId: 2003, enable: true }, supplier)).status).toBe(
      200,
    );

    const logged = lines.slice(before);
    // The log did record these requests (so the check below looks at real lines).
    expect(logged.some((l) => l.includes('/v1.0/resource/create'))).toBe(true);
    expect(logged.some((l) => l.includes('/v1.0/resource/export'))).toBe(true);
    expect(logged.filter((l) => l.includes('"statusCode":400')).length).toBeGreaterThanOrEqual(3);
    const text = logged.join('');
    for (const secret of [SECRET, ROTATED, 'LOGCANARY', sealedFirst, sealedRotated]) {
      expect(text.includes(secret), secret).toBe(false);
    }
    // Nor a session credential.
    for (const credential of [supplier.token!, supplier.token2!, admin.token!, admin.token2!]) {
      expect(text.includes(credential)).toBe(false);
    }
  });
});
