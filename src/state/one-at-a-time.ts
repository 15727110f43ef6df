// An async task that runs one at a time: asked while it runs, it runs once more after — if `again()` says the run
// that just ended did not already give what was asked. Used for the page's refetch of a thread's rows, one reply of
// tens of thousands of rows fetched part by part between runs: each run that landed meanwhile asked again, and at
// 20,000 requests each ask parsed ~35 MB more on the page.
export function oneAtATime(task: () => Promise<void>, again: () => boolean): () => Promise<void> {
  let running: Promise<void> | null = null;
  let asked = false;
  const start = (): Promise<void> => {
    running = (async () => {
      try {
        await task();
      } finally {
        running = null;
        const more = asked;
        asked = false;
        if (more && again()) void start();
      }
    })();
    return running;
  };
  return () => {
    if (running) {
      asked = true;
      return running;
    }
    return start();
  };
}
