import { entry } from './maps';

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Work done one run at a time per key, each run taking everything that waited for it: a call made while a run of its
 * key is under way waits and goes with the others in the next run (at most `most` of them by `size`, the rest in the
 * run after). A call made while none runs starts one at once, alone. `run` answers each item of its list, in order;
 * when it throws, every item of that run is refused with its error, and the next run still starts.
 *
 * The event ingestion stores the batches of one day this way: one COPY at a time per day takes the batches that arrived
 * meanwhile, rather than one COPY per batch on every connection at once, whose locks and commits contend
 * (`npm run bench -- events` measures both).
 *
 * A run may answer with work to do after it (`Ran.afterwards`): that work runs once the key's next run has started,
 * and its items are answered when it is done (the ingestion folds a stored batch while the next COPY is on its way).
 */
export class Together<T, R> {
  private readonly queues = new Map<string, Waiting<T, R>[]>();
  private readonly running = new Set<string>();

  constructor(
    private readonly run: (key: string, items: T[]) => Promise<R[] | Ran<R>>,
    private readonly most = Number.POSITIVE_INFINITY,
    private readonly size: (item: T) => number = () => 1,
  ) {}

  /** How many items wait for a run, of every key. */
  get waiting(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  /** `item` done in the next run of `key`: its answer. */
  add(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      entry(this.queues, key, () => []).push({ item, resolve, reject });
      if (!this.running.has(key)) void this.next(key);
    });
  }

  private async next(key: string) {
    const queue = this.queues.get(key);
    if (!queue?.length) {
      this.queues.delete(key);
      return;
    }
    let n = 0;
    for (let total = 0; n < queue.length; n++) {
      total += this.size(queue[n].item);
      if (n > 0 && total > this.most) break; // one item always goes, whatever its size
    }
    const taken = queue.splice(0, n);
    this.running.add(key);
    let ran: Ran<R> | undefined;
    let error: unknown;
    try {
      const answer = await this.run(
        key,
        taken.map((w) => w.item),
      );
      ran = Array.isArray(answer) ? { results: answer } : answer;
    } catch (err) {
      error = err;
    }
    this.running.delete(key);
    void this.next(key); // the next run starts before this one's afterwards
    if (ran?.afterwards)
      try {
        await ran.afterwards();
      } catch (err) {
        ran = undefined;
        error = err;
      }
    if (ran) for (const [i, w] of taken.entries()) w.resolve(ran.results[i]);
    else for (const w of taken) w.reject(error);
  }
}

/** A run's answer: each item's result, and work to do once the key's next run has started (see `Together`). */
export interface Ran<R> {
  results: R[];
  afterwards?: () => void | Promise<void>;
}
