import { isAbsolute, resolve } from 'node:path';

/** Where `npm start` keeps its data and the demo key: LOCAL_DATA_DIR (relative to the folder npm ran in) or .local. */
export function localDataDir(): string {
  const dir = process.env.LOCAL_DATA_DIR?.trim();
  if (!dir) return resolve(import.meta.dirname, '..', '.local');
  return isAbsolute(dir) ? dir : resolve(process.env.INIT_CWD ?? process.cwd(), dir);
}
