import { Code, endpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../modules/orders/signature.js';
import { DEMO_MERCHANT_API } from '../seed/demo-merchants.js';
import { DEMO_PASSWORD } from '../seed/seed.js';
import { nextIp, startTestApp, type TestApp } from '../testing/harness.js';

/**
 * The request log holds no credential, wherever the credential travelled: a sign-in's password and
 * authenticator code, the session token and token2 in headers, the cookie and a query string, an
 * Authorization header, a merchant's sign and secret, and the parameters of a failed SQL statement.
 * The app logs at 'info' (as `npm start` does) into a captured stream; the lines that must exist
 * (requests with their URLs, the SQL error with its statement) are checked too, so the test cannot
 * pass on an empty log.
 */
const lines: string[] = [];
let t: TestApp;

const WRONG_PASSWORD = 'Wrong-Password-CANARY-7f3a';
const QUERY_SECRET = 'QUERY-SECRET-CANARY-c41d';
const SIGN_CANARY = 'SIGN-CANARY-9E2B';
const BEARER = 'BEARER-CANARY-5d0e';
const SQL_SECRET = 'SQL-PARAM-SECRET-CANARY-88aa';

beforeAll(async () => {
  t = await startTestApp({
    config: { logLevel: 'info', rateLimitFactor: 1000 },
    logStream: { write: (line: string) => void lines.push(line) },
  });
}, 60_000);
afterAll(() => t.close());

describe('the log', () => {
  it('holds no password, code, token, token2, cookie, sign, secret or SQL parameter', async () => {
    const secrets: string[] = [WRONG_PASSWORD, QUERY_SECRET, SIGN_CANARY, BEARER, SQL_SECRET, DEMO_PASSWORD];
    const ip = nextIp();

    // A refused and an accepted sign-in: password and authenticator code in the body.
    const refused = await t.call(
      endpoints.auth.login,
      { userName: 'admin', password: WRONG_PASSWORD, googleCode: '123456' },
      { ip },
    );
    expect(refused.body.code).toBe(Code.wrongCredentials);
    const googleCode = t.code('admin');
    secrets.push(googleCode);
    const login = await t.call(
      endpoints.auth.login,
      { userName: 'admin', password: DEMO_PASSWORD, googleCode },
      { ip },
    );
    expect(login.body.code).toBe(Code.success);
    const token = login.body.data.token as string;
    secrets.push(token);
    const second = await t.call(endpoints.auth.login2, { password: DEMO_PASSWORD, logInReason: 'log test' }, { token });
    expect(second.body.code).toBe(Code.success);
    const token2 = second.body.data.token2 as string;
    secrets.push(token2);

    // The token and token2 in headers, the cookie, a Bearer header, and credentials in a query string.
    // (The export refuses the unknown parameters with 400: the request is logged all the same.)
    const info = await t.app.inject({
      url: `${endpoints.auth.exportSessions.path}?token=${token}&token2=${token2}&sign=${SIGN_CANARY}&password=${QUERY_SECRET}&pageIndex=1`,
      headers: { token, token2, authorization: `Bearer ${BEARER}` },
      cookies: { token },
    });
    expect(info.statusCode).toBe(400);
    const unknown = await t.app.inject({ url: `/v1.0/no-such-path?googleCode=${googleCode}&secret=${QUERY_SECRET}` });
    expect(unknown.statusCode).toBe(404);

    // A merchant's secret revealed, then used to sign a create; a create with a wrong sign.
    const revealed = await t.call(endpoints.merchants.revealSecret, { id: 1 }, { token, token2 });
    expect(revealed.body.code, JSON.stringify(revealed.body)).toBe(200);
    secrets.push(DEMO_MERCHANT_API.secret);
    const params = {
      mchId: DEMO_MERCHANT_API.mchId,
      productId: '1001',
      mchOrderNo: `LOG-${Date.now()}`,
      amount: '10007',
      notifyUrl: 'http://127.0.0.1:9/notify',
      subject: 'Top-up',
    };
    const sign = signParams(params, DEMO_MERCHANT_API.secret, DEMO_MERCHANT_API.signType);
    secrets.push(sign);
    const created = await t.app.inject({
      method: 'POST',
      url: endpoints.orders.create.path,
      payload: { ...params, sign },
    });
    expect(created.json().code, created.body).toBe(Code.success);
    const badSign = await t.app.inject({
      method: 'POST',
      url: `${endpoints.orders.create.path}?sign=${SIGN_CANARY}`,
      payload: { ...params, sign: SIGN_CANARY },
    });
    expect(badSign.json().code).not.toBe(Code.success);

    // Failed SQL statements whose parameters are secrets, logged as the server logs errors: a data
    // exception (PostgreSQL quotes the value in its message) and an unknown table.
    for (const statement of [
      sql`select ${SQL_SECRET}::int as n`,
      sql`select * from no_such_table_for_logs where secret = ${SQL_SECRET}`,
    ]) {
      const error = await t.database.db.execute(statement).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      t.app.log.error({ err: error }, 'statement failed');
    }

    await t.app.inject({ method: 'POST', url: endpoints.auth.logout.path, headers: { token } });

    const log = lines.join('');
    for (const secret of secrets) {
      expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
      expect(log.includes(encodeURIComponent(secret)), `the log holds ${secret} (escaped)`).toBe(false);
    }
    // The lines that say what happened are there: request URLs with the values redacted, the
    // failed statements with their text and SQLSTATE.
    const entries = lines.map((l) => JSON.parse(l) as { msg?: string; req?: { url?: string }; err?: unknown });
    const urls = entries.flatMap((e) => (e.req?.url ? [String(e.req.url)] : []));
    expect(urls).toContain(
      `${endpoints.auth.exportSessions.path}?token=[redacted]&token2=[redacted]&sign=[redacted]&password=[redacted]&pageIndex=1`,
    );
    expect(urls).toContain('/v1.0/no-such-path?googleCode=[redacted]&secret=[redacted]');
    const failures = entries.filter((e) => e.msg === 'statement failed');
    expect(failures).toHaveLength(2);
    const errorText = (e: { err?: unknown }) => JSON.stringify(e.err);
    expect(errorText(failures[0]!)).toContain('select $1::int as n');
    expect(errorText(failures[0]!)).toContain('22P02');
    expect(errorText(failures[1]!)).toContain('no_such_table_for_logs');
    expect(errorText(failures[1]!)).toContain('42P01');
  });
});
