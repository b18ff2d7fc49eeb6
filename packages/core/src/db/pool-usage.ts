/**
 * What the query pool is doing, counted by the project itself (postgres.js keeps its own counts
 * private: porsager/postgres#443). A unit of work is a statement sent outside a transaction, from
 * the moment it is handed to the pool until it settles, or a transaction, from BEGIN until its end:
 * each holds one connection while it runs. postgres.js opens connections up to the pool's size
 * before it lines work up behind a busy one, so past that size the surplus waits
 * (docs/operations.md, "What to watch on /metrics").
 */
export class PoolUsage {
  #working = 0;

  constructor(readonly size: number) {}

  /** Counts `work` until it settles, and returns it. */
  follow<W extends PromiseLike<unknown>>(work: W): W {
    this.#working++;
    work.then(this.#settle, this.#settle);
    return work;
  }

  /** Units of work waiting for a connection: queued, or lined up behind a busy one. */
  get waiting(): number {
    return Math.max(0, this.#working - this.size);
  }

  readonly #settle = () => {
    this.#working--;
  };
}
