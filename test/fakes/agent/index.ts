/**
 * The reference workstation agent: protocol 1 of /agents/ws (README "Workstation agents") over `ws`, with a simulated
 * TTLock card encoder, an ATOL fiscal register, serial ports and printers. API tests, benchmarks and `npm run dev`
 * drive it; cli.ts runs one from the command line.
 *
 * - startReferenceAgent connects at once (Bearer credential, hello, heartbeats after welcome), executes every command
 *   id at most once (a repeat gets the stored reply and counts in `redeliveries`), reconnects with backoff after any
 *   close but 4003, and after `update` reconnects announcing the new version.
 * - Switches for tests: goOffline/goOnline, setSlow, setFailing, dropNextReply, setHeartbeats, setCardPresent,
 *   placeCard, setFiscalRefusal, setUnreachable.
 */
export { startReferenceAgent, ReferenceAgent, type AgentEvent, type ReferenceAgentOptions } from './agent';
export type { AgentState, ReconnectBackoff } from './connection';
export type { WrittenCard, CancelledCard } from './devices/card-encoder';
export type { PrinterInfo } from './devices/desk';
export type { FiscalReceipt, FiscalResult } from './devices/fiscal-register';
export { pairAgent, type AgentPairing } from './pair';
export type { AgentCommand, CommandReply, HelloMessage, WelcomeMessage } from './protocol';
