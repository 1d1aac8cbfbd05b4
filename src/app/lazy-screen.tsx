// Screens load on demand (SPEC §2). A chunk that fails, or takes longer than 120 s, shows a
// translated error with a retry that loads it again instead of leaving a blank tab.
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export const CHUNK_TIMEOUT_MS = 120_000;

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunk timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

interface BoundaryProps {
  fallback: (error: Error) => ReactNode;
  /** Called once the failure is on screen. */
  onError: () => void;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error) {
    console.warn("screen failed", error);
    this.props.onError();
  }
  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

// Plain markup: this file is part of the first page, which carries no UI library (DESIGN §8).
function ChunkError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="chunk-error" role="alert">
      <p>{t("messages.chunkFailed")}</p>
      <button type="button" onClick={onRetry}>
        {t("actions.retry")}
      </button>
    </div>
  );
}

export const Loading = () => (
  <div className="screen-loading" role="progressbar" aria-busy="true">
    <span className="spinner" />
  </div>
);

/** A screen loaded on demand, whose code can be fetched ahead of its first render. */
export type LazyScreen<P> = ComponentType<P> & {
  /**
   * Starts loading its code, settled when it has come (or failed: its render then offers the retry). A
   * screen rendered once its code has come shows at once, without a fallback.
   */
  preload(): Promise<void>;
};

/**
 * A component that loads its module on first render, with a timeout and a retry. The loaded component is
 * kept for every later visit: a new lazy component per visit would suspend each time, and React holds a
 * suspended screen's fallback for 300 ms, so a switch back to a list cost a third of a second of blank page.
 *
 * A route's screen (`page: true`) has no loading fallback of its own: while it, or the words it needs,
 * load, a navigation (a transition) keeps the page being left on screen, and the page appears when it is
 * ready. A fallback of its own would be shown and then held for those 300 ms however soon the code came
 * (the first visit of a list waited 300 ms for nothing). The shell's fallback covers a page opened first.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<ComponentType<P>>,
  {
    page = false,
    fallback = <Loading />,
    timeoutMs = CHUNK_TIMEOUT_MS,
  }: { page?: boolean; fallback?: ReactNode; timeoutMs?: number } = {},
): LazyScreen<P> {
  /** A failure was shown: the next mount loads again. */
  let failed = false;
  /** The component once its code has come: rendered as it is, nothing to suspend on. */
  let component: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () =>
    (loading ??= withTimeout(load(), timeoutMs).then((loaded) => {
      component = loaded;
      return { default: loaded };
    }));
  // A new one only after a failure (React.lazy remembers a rejection forever): on the retry, when a
  // screen of this kind is opened again after its failure was shown, or when a preload failed. Not as a
  // page that suspended mounts again (it was never on screen): it would load again at every mount.
  let loaded = lazy(start);
  const again = () => {
    failed = false;
    loading = undefined;
    loaded = lazy(start);
  };
  function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState(() => {
      if (failed) again();
      return 0;
    });
    // Chosen once per mount: switching from the lazy wrapper to the component it loaded would mount the
    // screen again, losing its state.
    const Screen = useMemo(() => component ?? loaded, [attempt]);
    const retry = () => {
      again();
      setAttempt((n) => n + 1);
    };
    return (
      <Boundary key={attempt} fallback={() => <ChunkError onRetry={retry} />} onError={() => (failed = true)}>
        {page ? (
          <Screen {...props} />
        ) : (
          <Suspense fallback={fallback}>
            <Screen {...props} />
          </Suspense>
        )}
      </Boundary>
    );
  }
  const preload = () => start().then(() => undefined, again);
  return Object.assign(LazyScreen, { preload });
}
