import { readFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';

/** Where global-setup records the running test stack for the test files (separate processes). */
export function stackFile(): string {
  return path.join(os.tmpdir(), `hotel-pms-test-stack-${process.env.HOTEL_PMS_TEST_RUN ?? 'default'}.json`);
}

export interface TestStackInfo {
  env: Record<string, string>;
}

export function readStackInfo(): TestStackInfo {
  return JSON.parse(readFileSync(stackFile(), 'utf8')) as TestStackInfo;
}

/** Values shared by the worker process and the in-process test apps, so e-mailed links match. */
export const TEST_APP_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
  BASE_URL: 'http://api.test',
  APP_URL: 'http://app.test',
  RATE_LIMIT_MAX_PER_IP: '1000000',
  RATE_LIMIT_MAX_PER_ACCOUNT: '1000000',
  WIDGET_READS_PER_MINUTE: '1000000',
  WIDGET_SUBMISSIONS_PER_10_MINUTES: '1000000',
  WIDGET_LOOKUPS_PER_15_MINUTES: '1000000',
  YOOKASSA_NOTIFICATIONS_PER_MINUTE: '1000000',
  // The review invitation follows a check-out by seconds, not by the hotel's hours.
  REVIEW_INVITATION_DELAY_MS: '2000',
  ENCRYPTION_KEYS: `test1:${Buffer.alloc(32, 1).toString('base64')}`,
  // A fixed Web Push (VAPID) pair for tests only: the fake push service checks pushes are signed with it.
  VAPID_PUBLIC_KEY: 'BHQZq8r8VKyNt2Fyb3tFADVImRn8psYqSyye3-gDqyOyB7AX8VhP3UAt_K_ROwwZ5GTbzZW1H8mm40f3rX-L6rc',
  VAPID_PRIVATE_KEY: 'e8NXpqKsuVzg-UgnH6VUyCs6vVK_gt05SCjLHXCUOKU',
  VAPID_SUBJECT: 'mailto:push@hotel.test',
};
