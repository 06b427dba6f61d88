import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';

/** A batcher whose batches wait until released, recording what each batch held. */
function gated() {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  const batcher = new Batcher<number, string>(async (items) => {
    batches.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((n) => (n < 0 ? new Error(`bad ${n}`) : `ok ${n}`));
  }, 3);
  const release = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
  };
  return { batcher, batches, release };
}

describe('Batcher (group commit)', () => {
  it('runs a lone call at once, and the calls that arrive meanwhile together, at most maxBatch at a time', async () => {
    const { batcher, batches, release } = gated();
    const first = batcher.submit(1);
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1]]);
    const later = [2, 3, 4, 5].map((n) => batcher.submit(n));
    await release();
    expect(await first).toBe('ok 1');
    await release();
    await release();
    expect(await Promise.all(later)).toEqual(['ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it("answers each call its own result: one item's error fails that call only", async () => {
    const { batcher, release } = gated();
    const calls = [7, -1, 8].map((n) => batcher.submit(n));
    await release();
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'ok 7',
      'bad -1',
      'ok 8',
    ]);
  });

  it('a batch that throws rejects its own calls, and the next batch still runs', async () => {
    let n = 0;
    const batcher = new Batcher<number, number>(async (items) => {
      n += 1;
      if (n === 1) throw new Error('database gone');
      return items;
    }, 10);
    const failed = batcher.submit(1);
    await expect(failed).rejects.toThrow('database gone');
    expect(await batcher.submit(2)).toBe(2);
  });
});
