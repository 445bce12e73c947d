import bcrypt from 'bcrypt';
import { BCRYPT_COST } from '../../src/modules/auth/auth.passwords';
import { runLoad, type LoadResult } from './stats';

/** How many cost-12 comparisons per second this machine can do at all, with `clients` in flight (no HTTP, no DB). */
export async function bcryptCeiling(clients: number, durationMs: number): Promise<LoadResult> {
  const hash = await bcrypt.hash('benchmark-password-1', BCRYPT_COST);
  return runLoad(clients, durationMs, async () => bcrypt.compare('benchmark-password-1', hash));
}
