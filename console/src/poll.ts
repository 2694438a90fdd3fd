/**
 * Polling that costs nothing while the tab is hidden: one request per interval while the page is shown, none when the
 * person has switched away (it catches up at once on return), and stopped when the page is left.
 */
export function poll(every: number, tick: () => Promise<void>): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (!stopped && document.visibilityState === 'visible') timer = setTimeout(run, every);
  };
  const run = async () => {
    await tick().catch(() => undefined);
    schedule();
  };
  const onVisibility = () => {
    clearTimeout(timer);
    if (document.visibilityState === 'visible') void run();
  };
  document.addEventListener('visibilitychange', onVisibility);
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
