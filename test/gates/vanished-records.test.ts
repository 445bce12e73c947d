import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { createMailer } from '../../src/platform/mail';
import type { BlockReleaseActivities } from '../../workflows/contracts/blocks';
import type { AccountActivities, StaffActivities } from '../../workflows/contracts/accounts';
import type { AgentActivities } from '../../workflows/contracts/agents';
import type { BookingActivities } from '../../workflows/contracts/bookings';
import type { CardIssuanceActivities } from '../../workflows/contracts/cards';
import type { ChatActivities } from '../../workflows/contracts/chat';
import type { FiscalActivities, FiscalPrintActivities } from '../../workflows/contracts/fiscal';
import type { LoyaltyActivities } from '../../workflows/contracts/loyalty';
import type { LoyaltyExpiryActivities } from '../../workflows/contracts/loyalty-expiry';
import type { RetentionActivities } from '../../workflows/contracts/retention';
import type { MaintenanceActivities } from '../../workflows/contracts/maintenance';
import type { NightAuditActivities } from '../../workflows/contracts/night-audit';
import type { BookingPaymentActivities } from '../../workflows/contracts/booking-payments';
import type { DepositActivities } from '../../workflows/contracts/deposits';
import type { InvoiceActivities } from '../../workflows/contracts/invoices';
import type { PushActivities } from '../../workflows/contracts/push';
import type { ReportActivities } from '../../workflows/contracts/reports';
import type { ReviewActivities } from '../../workflows/contracts/reviews';
import type { TvActivities } from '../../workflows/contracts/tv';
import { registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { reportGate } from '../helpers/gates';
import { readStackInfo } from '../helpers/stack-env';
import type { WebhookActivities } from '../../workflows/contracts/webhooks';
import type { ChannelIntakeActivities } from '../../workflows/contracts/channel-intake';
import type { ChannelActivities } from '../../workflows/contracts/channels';

/**
 * Every activity the worker registers, called for records that are gone (a hotel deleted while its workflows still
 * ran, a booking, deposit, receipt, issuance or user that no longer exists). A workflow retries an activity that
 * throws; one that throws for a record that will never come back is retried for as long as its options allow (a day
 * for the booking's after-stay step) and keeps its workflow from finishing. So each must come back with an answer
 * (skipped, not eligible, gone) or fail as a non-retryable ApplicationFailure, a decided refusal. The table is typed
 * by the workflow contracts, and the registered names are checked against it: a new activity is covered by adding
 * its line, or the gate fails. Each is called twice: for a hotel that is gone, and for a hotel that exists whose record
 * is gone; the sweeps over every hotel are called too, and must answer.
 */

type Contracts = AccountActivities &
  ChannelActivities &
  StaffActivities &
  AgentActivities &
  BookingActivities &
  CardIssuanceActivities &
  ChatActivities &
  FiscalActivities &
  FiscalPrintActivities &
  LoyaltyActivities &
  LoyaltyExpiryActivities &
  RetentionActivities &
  MaintenanceActivities &
  DepositActivities &
  BookingPaymentActivities &
  PushActivities &
  ReviewActivities &
  TvActivities &
  ReportActivities &
  BlockReleaseActivities &
  NightAuditActivities &
  InvoiceActivities &
  WebhookActivities &
  ChannelIntakeActivities;

/** The arguments naming gone records, or `sweep` for a job over every hotel (it names no record: called bare). */
type Calls = {
  [Name in keyof Contracts]: Parameters<Contracts[Name]> extends []
    ? 'sweep'
    : (gone: GoneIds) => Parameters<Contracts[Name]>;
};

interface GoneIds {
  hotelId: string;
  id: string;
}

const CALLS: Calls = {
  handleAccountRequest: ({ id }) => [id],
  sendAccountEmail: ({ id }) => ['confirmation', id],
  sendInvitationEmail: ({ id }) => [id],
  sendDailyReportEmail: ({ hotelId, id }) => [{ hotelId, date: '2026-01-01', key: id }],
  expireInvitation: ({ id }) => [id],
  runAgentCommand: ({ hotelId, id }) => [
    { hotelId, workstationId: id, key: `gone:${id}`, type: 'ping', payload: {}, deadlineMs: 1000 },
  ],
  announceBooking: ({ hotelId, id }) => [hotelId, id, { event: 'created' }],
  sendGuestBookingEmail: ({ hotelId, id }) => [hotelId, id, 'confirmed'],
  findNoShows: 'sweep',
  cancelNoShow: ({ hotelId, id }) => [{ hotelId, hotelSlug: `gone-${id}`, bookingId: id }],
  findOverdueStays: 'sweep',
  autoCheckOut: ({ hotelId, id }) => [{ hotelId, hotelSlug: `gone-${id}`, bookingId: id }],
  carryOutPlannedMove: ({ hotelId, id }) => [hotelId, id, { from: '2026-01-02', roomId: id, at: 0 }],
  prepareCardWrite: ({ hotelId, id }) => [hotelId, id],
  recordCardWritten: ({ hotelId, id }) => [hotelId, id, 'CARD-1'],
  recordCardFailed: ({ hotelId, id }) => [hotelId, id, { code: 'NO_CARD', message: 'Приложите карту к энкодеру' }],
  pushUnreadChat: 'sweep',
  fiscalReceiptStatus: ({ hotelId, id }) => [{ hotelId, receiptId: id }],
  markFiscalReceiptPrinted: ({ hotelId, id }) => [{ hotelId, receiptId: id, result: {} }],
  markFiscalReceiptFailed: ({ hotelId, id }) => [
    { hotelId, receiptId: id, error: { code: 'NO_PAPER', message: 'Нет бумаги' } },
  ],
  printFiscalReceipt: ({ hotelId, id }) => [{ hotelId, receiptId: id, deadlineMs: 1000 }],
  accrueStayPoints: ({ hotelId, id }) => [hotelId, id],
  expireLoyaltyPoints: 'sweep',
  // A sweep: at the present moment, nothing of the records gone is chosen.
  eraseExpiredGuests: () => [new Date().toISOString()],
  purgeExpiredRecords: 'sweep',
  createDepositPayment: ({ hotelId, id }) => [hotelId, id],
  syncDepositPayment: ({ hotelId, id }) => [hotelId, id],
  expireDepositPayment: ({ hotelId, id }) => [hotelId, id],
  performDepositOperation: ({ hotelId, id }) => [hotelId, id, { operation: 'release' }],
  settleLapsingHold: ({ hotelId, id }) => [hotelId, id],
  sendDepositStatement: ({ hotelId, id }) => [hotelId, id],
  createBookingPayment: ({ hotelId, id }) => [hotelId, id],
  syncBookingPayment: ({ hotelId, id }) => [hotelId, id],
  expireBookingPayment: ({ hotelId, id }) => [hotelId, id],
  pushTargets: ({ hotelId, id }) => [{ hotelId, notificationId: id }],
  sendPush: ({ hotelId, id }) => [{ hotelId, notificationId: id, subscriptionId: randomUUID() }],
  reviewInvitationDelay: ({ hotelId, id }) => [hotelId, id],
  sendReviewInvitation: ({ hotelId, id }) => [hotelId, id],
  pushStayToTv: ({ hotelId, id }) => [{ hotelId, bookingId: id, event: 'check_out' }],
  releaseBlockNights: ({ hotelId, id }) => [hotelId, id],
  // A day long past: a hotel's own that was never audited, for the hotel that exists.
  beginNightAudit: ({ hotelId }) => [{ hotelId, businessDate: '2001-01-01' }],
  postAuditNights: ({ hotelId }) => [hotelId, '2001-01-01'],
  cancelAuditNoShows: ({ hotelId }) => [hotelId, '2001-01-01'],
  markAuditStayovers: ({ hotelId }) => [hotelId, '2001-01-01'],
  closeAuditDay: ({ hotelId }) => [hotelId, '2001-01-01'],
  writeAuditSnapshot: ({ hotelId }) => [hotelId, '2001-01-01'],
  sendAuditReport: ({ hotelId }) => [hotelId, '2001-01-01'],
  finishNightAudit: ({ hotelId }) => [hotelId, '2001-01-01'],
  failNightAudit: ({ hotelId }) => [hotelId, '2001-01-01', 'gone'],
  syncNightAuditSchedule: ({ hotelId }) => [hotelId],
  sendInvoiceEmail: ({ hotelId, id }) => [hotelId, id],
  webhookState: ({ hotelId, id }) => [{ hotelId, subscriptionId: id }],
  deliverWebhookEvents: ({ hotelId, id }) => [{ hotelId, subscriptionId: id }],
  pauseWebhookSubscription: ({ hotelId, id }) => [{ hotelId, subscriptionId: id, reason: 'gone' }],
  pullChannelRevisions: ({ hotelId, id }) => [{ hotelId, revisionIds: [id] }],
  wakeChannelIntakes: 'sweep',
  pushChannelAri: ({ hotelId }) => [{ hotelId, full: true }],
};

let t: TestApp;
let registered: Record<string, (...args: unknown[]) => Promise<unknown>>;
/** The worker's client, as activities get it (the night audit's keep its schedules). */
let temporal: Connection;

beforeAll(async () => {
  t = createTestApp();
  temporal = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  const mailer = createMailer(t.config.smtpUrl, t.config.mailFrom);
  registered = createActivities({ db: t.db, config: t.config, mailer }) as typeof registered;
});

afterAll(async () => {
  await temporal.close();
  await t.close();
});

/** Calls every activity that names records with `gone`, by name: how each ended. */
async function outcomesFor(gone: GoneIds): Promise<Record<string, string>> {
  const outcomes: Record<string, string> = {};
  for (const [name, call] of Object.entries(CALLS) as [string, 'sweep' | ((ids: GoneIds) => unknown[])][]) {
    if (call !== 'sweep') outcomes[name] = await outcomeOf(name, call(gone));
  }
  return outcomes;
}

const retriedInVain = (outcomes: Record<string, string>) =>
  Object.fromEntries(Object.entries(outcomes).filter(([, outcome]) => outcome.startsWith('retried in vain')));
const counted = (outcomes: Record<string, string>, kind: string) =>
  Object.values(outcomes).filter((outcome) => outcome.startsWith(kind)).length;

const figures: string[] = [];

/** How a call ended: an answer, a decided refusal, or a failure a workflow would retry in vain. */
async function outcomeOf(name: string, args: unknown[]): Promise<string> {
  try {
    await new MockActivityEnvironment(undefined, { client: new Client({ connection: temporal }) }).run(
      registered[name],
      ...args,
    );
    return 'answered';
  } catch (error) {
    if (error instanceof ApplicationFailure && error.nonRetryable) return `refused (${error.type ?? 'no type'})`;
    return `retried in vain: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
}

describe('activities and records that are gone', () => {
  it('every registered activity is in the table, and the table names only registered ones', () => {
    expect(Object.keys(registered).sort()).toEqual(Object.keys(CALLS).sort());
  });

  it.each([
    ['a hotel and records that do not exist', async () => randomUUID()],
    ['records gone from a hotel that exists', async () => (await registerHotel(t)).hotelId],
  ])('answers, or refuses for good, for %s', async (what, hotelOf) => {
    const outcomes = await outcomesFor({ hotelId: await hotelOf(), id: randomUUID() });
    figures.push(
      `${what}: ${counted(outcomes, 'answered')} answered, ${counted(outcomes, 'refused')} refused for good, ` +
        `${counted(outcomes, 'retried in vain')} retried in vain`,
    );
    expect(retriedInVain(outcomes)).toEqual({});
  });

  it('the sweeps over every hotel answer', async () => {
    const sweeps = Object.entries(CALLS).filter(([, call]) => call === 'sweep');
    const outcomes: Record<string, string> = {};
    for (const [name] of sweeps) outcomes[name] = await outcomeOf(name, []);
    expect(sweeps.length).toBeGreaterThan(0);
    expect(Object.entries(outcomes).filter(([, outcome]) => outcome !== 'answered')).toEqual([]);
    figures.push(`${sweeps.length} sweeps answered`);
  });
});

afterAll(() => {
  const calls = Object.values(CALLS).filter((call) => call !== 'sweep').length;
  if (figures.length === 3) reportGate('vanished-records', `${calls} activities; ${figures.join('; ')}`);
});
