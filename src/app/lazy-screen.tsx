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

/** A component that loads its module on first render, with a timeout and a retry. */
export function lazyScreen<P extends object>(
  load: () => Promise<ComponentType<P>>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): ComponentType<P> {
  return function LazyScreen(props: P) {
    const [attempt, setAttempt] = useState(0);
    // A new lazy component per attempt: React.lazy remembers a rejection forever.
    const Screen = useMemo(
      () => lazy(() => withTimeout(load(), timeoutMs).then((component) => ({ default: component }))),
      [attempt],
    );
    return (
      <Boundary key={attempt} fallback={() => <ChunkError onRetry={() => setAttempt((n) => n + 1)} />}>
        <Suspense fallback={<Loading />}>
          <Screen {...props} />
        </Suspense>
      </Boundary>
    );
  };
}
