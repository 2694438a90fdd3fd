/**
 * Imported first by the local entry points (npm start, the benchmarks): Powertools reads its settings when the
 * logger and metrics are created, at import, so they must be in the environment before anything imports them.
 * Locally, EMF metrics would only clutter the output and info lines would drown the URL and key.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
