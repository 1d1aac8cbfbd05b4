// Admission in turn: at most `limit` requests at work at once, the others waiting in the order they came.
// PGlite answers one statement at a time, so fifty requests at work at once each wait behind the others'
// statements at every step of their own, and the unlucky one waits seconds; admitted in turn, each waits
// once, for those before it.

export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves when it is this caller's turn, with the function that ends it (called twice, it ends it once). */
  async enter(): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
