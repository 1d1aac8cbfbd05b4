// Screens load on demand (SPEC §2). A chunk that fails, or takes longer than 120 s, shows a
// translated error with a retry that loads it again instead of leaving a blank tab.
import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from "react";
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

class Boundary extends Component<{ fallback: (error: Error) => ReactNode; children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error) {
    console.warn("screen failed", error);
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

/**
 * A component that loads its module on first render, with a timeout and a retry. The loaded component is
 * kept for every later visit: a new lazy component per visit would suspend each time, and React holds a
 * suspended screen's fallback for 300 ms, so a switch back to a list cost a third of a second of blank page.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<ComponentType<P>>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): ComponentType<P> {
  let failed = false;
  const attemptOf = () =>
    lazy(() =>
      withTimeout(load(), timeoutMs).then(
        (component) => ({ default: component }),
        (error: unknown) => {
          failed = true;
          throw error;
        },
      ),
    );
  // A new one only after a failure (React.lazy remembers a rejection forever): on the retry, or when a
  // screen of this kind is opened again.
  let loaded = attemptOf();
  const again = () => {
    failed = false;
    loaded = attemptOf();
  };
  return function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState(() => {
      if (failed) again();
      return 0;
    });
    const Screen = loaded;
    const retry = () => {
      again();
      setAttempt((n) => n + 1);
    };
    return (
      <Boundary key={attempt} fallback={() => <ChunkError onRetry={retry} />}>
        <Suspense fallback={<Loading />}>
          <Screen {...props} />
        </Suspense>
      </Boundary>
    );
  };
}
