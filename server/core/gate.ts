// Admission in turn: at most `limit` requests at work at once, the others waiting in the order they came.
// PGlite answers one statement at a time, so fifty requests at work at once each wait behind the others'
// statements at every step of their own, and the unlucky one waits seconds; admitted in turn, each waits
// once, for those before it.
import { databaseWait } from "./metrics.ts";

export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Callers waiting for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Callers at work. */
  get busy(): number {
    return this.active;
  }

  /** Resolves when it is this caller's turn, with the function that ends it (called twice, it ends it once). */
  async enter(): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    else {
      const waited = databaseWait.startTimer();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      waited();
    }
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

/**
 * One call's turn at a gate, taken and left as the call needs it: before its statements, and left while
 * it waits on something else (a client reading an export, a file arriving). Taking a turn held already
 * and leaving one not held do nothing, so the request's end can always leave it.
 */
export class Turn {
  private release: (() => void) | undefined;
  private taking: Promise<void> | undefined;
  private ended = false;

  constructor(private readonly gate: Gate | undefined) {}

  /** Resolves once this call holds its turn (at once without a gate, or when it holds one). */
  take(): Promise<void> {
    if (!this.gate || this.release || this.ended) return Promise.resolve();
    this.taking ??= this.gate.enter().then((leave) => {
      this.taking = undefined;
      // The call ended while it waited: the turn goes straight to the next one.
      if (this.ended) leave();
      else this.release = leave;
    });
    return this.taking;
  }

  leave(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  /** The call is over (its response closed): the turn is left and never taken again. */
  end(): void {
    this.ended = true;
    this.leave();
  }
}
