import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../apps/server/src/db/client.js';
import { busyShare, countQueries, lockSampler, machineSample } from './probes.js';

const url = process.env.TEST_DATABASE_URL;

describe('the machine probe', () => {
  it('reads the busy share of all cores from /proc/stat', async () => {
    const before = machineSample();
    // Keep this core busy for a while so the share cannot be zero.
    const until = performance.now() + 300;
    while (performance.now() < until);
    const share = busyShare(before, machineSample());
    expect(before?.cores).toBeGreaterThanOrEqual(1);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThanOrEqual(1);
  });
});

describe.skipIf(!url)('the database probes (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    scratch = await createScratchDatabase(url!);
  });
  afterAll(async () => {
    await scratch?.drop();
  });

  it('counts the queries this process sends through any node-postgres client, but not its own sampler', async () => {
    const queries = countQueries();
    const sampler = await lockSampler(scratch.url, 20);
    const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    try {
      const before = queries.sent();
      const sampling = sampler.start();
      await pool.query('select 1');
      const client = await pool.connect();
      await client.query('select 2');
      await client.query({ text: 'select $1::int', values: [3], name: 'probe' });
      client.release();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const waits = await sampling.stop();
      expect(waits.samples).toBeGreaterThan(1);
      expect(queries.sent() - before).toBe(3);
    } finally {
      await pool.end();
      await sampler.close();
    }
  });

  it('integrates the time a backend waits for a row lock, and names the waiting statement and its wait', async () => {
    const sampler = await lockSampler(scratch.url, 20);
    const holder = new pg.Client({ connectionString: scratch.url });
    const waiter = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    await waiter.connect();
    try {
      await holder.query('create table hot (id int primary key, n int); insert into hot values (1, 0)');
      const sampling = sampler.start();
      await holder.query('begin');
      await holder.query('update hot set n = n + 1 where id = 1');
      const waited = waiter.query('update hot set n = n + 10 where id = 1');
      await new Promise((resolve) => setTimeout(resolve, 600));
      await holder.query('commit');
      await waited;
      const waits = await sampling.stop();
      // About 600 ms of one backend's wait, give or take the sampling interval on a loaded machine.
      expect(waits.lockMs).toBeGreaterThan(400);
      expect(waits.lockMs).toBeLessThan(1500);
      expect(waits.busyMs).toBeGreaterThanOrEqual(waits.lockMs);
      expect([...waits.byEvent.keys()]).toEqual(['transactionid']);
      // Number literals folded, so statements sent with their values inline (pgbench's) group together.
      expect([...waits.byStatement.keys()]).toEqual(['update hot set n = n + ? where id = ?']);
    } finally {
      await holder.end();
      await waiter.end();
      await sampler.close();
    }
  });
});
