import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { rowsOf } from './raw-rows.js';
import { autovacuumOff, scheduleUpkeep, type UpkeepResult, upkeep } from './upkeep.js';

describe.runIf(process.env.TEST_DB !== 'postgres')('embedded database upkeep', () => {
  it('vacuums and analyzes the tables past autovacuum thresholds, which PGlite never does by itself', async () => {
    const database = await openDatabase({});
    const { db } = database;
    const stats = async () => {
      await db.execute(sql`select pg_stat_force_next_flush()`);
      const [row] = rowsOf<{ dead: number; vacuumed: boolean; analyzed: boolean }>(
        await db.execute(sql`
          select n_dead_tup::int as dead, last_vacuum is not null as vacuumed, last_analyze is not null as analyzed
            from pg_stat_user_tables where relname = 'upkeep_probe'`),
      );
      return row!;
    };
    const estimate = async () => {
      const plan = rowsOf<{ 'QUERY PLAN': string }>(await db.execute(sql`explain select * from upkeep_probe`));
      return Number(/rows=(\d+)/.exec(plan[0]!['QUERY PLAN'])![1]);
    };
    try {
      await db.execute(sql`create table upkeep_probe (id int primary key, v int not null)`);
      await db.execute(sql`insert into upkeep_probe select g, 0 from generate_series(1, 2000) g`);
      await db.execute(sql`update upkeep_probe set v = v + 1`);
      expect(await stats()).toEqual({ dead: 2000, vacuumed: false, analyzed: false });

      const first = await upkeep(database);
      expect(first.vacuumed).toContain('public.upkeep_probe');
      expect(await stats()).toEqual({ dead: 0, vacuumed: true, analyzed: true });
      // The planner now knows the table's size (without statistics it guesses from its pages).
      expect(await estimate()).toBe(2000);

      // Nothing is due again until enough rows change; a few updates are below the threshold.
      await db.execute(sql`update upkeep_probe set v = v + 1 where id <= 10`);
      const second = await upkeep(database);
      expect([...second.vacuumed, ...second.analyzed]).not.toContain('public.upkeep_probe');
      expect(await autovacuumOff(database)).toBe(false);
    } finally {
      await database.close();
    }
  });

  it('runs by itself on a schedule, and stopping waits for a run in progress', async () => {
    const database = await openDatabase({});
    try {
      await database.db.execute(sql`create table upkeep_timer (id int primary key, v int not null)`);
      await database.db.execute(sql`insert into upkeep_timer select g, 0 from generate_series(1, 500) g`);
      await database.db.execute(sql`update upkeep_timer set v = 1`);
      const runs: UpkeepResult[] = [];
      const failures: unknown[] = [];
      const task = scheduleUpkeep(database, 20, {
        done: (result) => runs.push(result),
        failed: (error) => failures.push(error),
      });
      await expect.poll(() => runs.some((r) => r.vacuumed.includes('public.upkeep_timer'))).toBe(true);
      await task.stop();
      const after = runs.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(runs.length).toBe(after);
      expect(failures).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
