import { describe, expect, test } from 'vitest';
import { Together } from '../../server/core/together';

/** A promise and its resolve, for holding a run until the test lets it go. */
function gate() {
  let open!: () => void;
  const shut = new Promise<void>((r) => {
    open = r;
  });
  return { shut, open };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('Together: one run at a time per key, each taking what waited', () => {
  test('a call made while none runs starts a run alone; calls made meanwhile go together in the next', async () => {
    const runs: number[][] = [];
    const hold = gate();
    const t = new Together<number, number>(async (_key, items) => {
      runs.push(items);
      if (runs.length === 1) await hold.shut;
      return items.map((x) => x * 10);
    });
    const answers = [t.add('a', 1), t.add('a', 2), t.add('a', 3)];
    await settle();
    expect(runs).toEqual([[1]]);
    expect(t.waiting).toBe(2);
    hold.open();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
    expect(runs).toEqual([[1], [2, 3]]);
    expect(t.waiting).toBe(0);
  });

  test('keys run apart, each one at a time', async () => {
    const running = new Set<string>();
    let overlap = false;
    let both = false;
    const t = new Together<string, string>(async (key, items) => {
      if (running.has(key)) overlap = true;
      running.add(key);
      if (running.size === 2) both = true;
      await settle();
      running.delete(key);
      return items.map((x) => `${key}${x}`);
    });
    const answers = await Promise.all(['1', '2', '3'].flatMap((x) => [t.add('a', x), t.add('b', x)]));
    expect(answers).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
    expect(overlap).toBe(false);
    expect(both).toBe(true);
  });

  test('a run takes at most `most` by size (one item always), the rest wait for the run after', async () => {
    const runs: number[][] = [];
    const hold = gate();
    const t = new Together<number, number>(
      async (_key, items) => {
        runs.push(items);
        if (runs.length === 1) await hold.shut;
        return items;
      },
      5,
      (x) => x,
    );
    const answers = [1, 2, 3, 4, 9, 1].map((x) => t.add('k', x));
    await settle();
    hold.open();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 9, 1]);
    expect(runs).toEqual([[1], [2, 3], [4], [9], [1]]);
  });

  test('a run that throws refuses its items with its error; the next run still starts', async () => {
    const hold = gate();
    let n = 0;
    const t = new Together<number, number>(async (_key, items) => {
      n++;
      if (n === 1) await hold.shut;
      if (n === 2) throw new Error('down');
      return items;
    });
    const first = t.add('k', 1);
    await settle();
    const failed = [t.add('k', 2), t.add('k', 3)].map((p) => p.catch((err: Error) => err.message));
    hold.open();
    expect(await first).toBe(1);
    expect(await Promise.all(failed)).toEqual(['down', 'down']);
    expect(await t.add('k', 4)).toBe(4);
  });

  test("a run's afterwards runs once the next run has started; its items are answered when it is done", async () => {
    const log: string[] = [];
    const hold = gate();
    const after = gate();
    const t = new Together<number, number>(async (_key, items) => {
      log.push(`run ${items}`);
      if (items[0] === 1) {
        await hold.shut;
        return {
          results: items,
          afterwards: async () => {
            log.push('afterwards 1');
            await after.shut;
          },
        };
      }
      return items;
    });
    const first = t.add('k', 1).then((x) => log.push(`answered ${x}`));
    await settle();
    const second = t.add('k', 2).then((x) => log.push(`answered ${x}`));
    hold.open();
    await settle();
    // The next run started first, then the afterwards; the second is answered, the first waits for its afterwards.
    expect(log).toEqual(['run 1', 'run 2', 'afterwards 1', 'answered 2']);
    after.open();
    await Promise.all([first, second]);
    expect(log).toEqual(['run 1', 'run 2', 'afterwards 1', 'answered 2', 'answered 1']);
  });

  test("an afterwards that throws refuses its run's items with its error", async () => {
    const t = new Together<number, number>(async (_key, items) => ({
      results: items,
      afterwards: () => {
        throw new Error('fold failed');
      },
    }));
    await expect(t.add('k', 1)).rejects.toThrow('fold failed');
  });
});
