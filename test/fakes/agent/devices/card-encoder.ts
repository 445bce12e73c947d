import { CommandFailure } from '../protocol';
import { integerField, invalidPayload, stringField, timeField, type Payload } from '../payload';

export const ENCODER_DLL_VERSION = 'CardEncoder 1.6.1';

export interface WrittenCard {
  card_number: string;
  payload: Payload;
  written_at: string;
}

export interface CancelledCard {
  card_number: string;
  payload: Payload;
  cancelled_at: string;
}

/** What survives an agent restart: card numbers are never handed out twice. */
export interface CardEncoderSnapshot {
  lastCardNumber: number;
}

/**
 * A TTLock hotel card encoder on one serial port. It holds at most one card: a blank one, or the last one written,
 * until a test takes it away (cardPresent false) or places another (placeCard).
 */
export class CardEncoder {
  cardPresent = true;
  /** The number of the card on the encoder; undefined while that card is blank. */
  cardOnEncoder: string | undefined;
  readonly cards: WrittenCard[] = [];
  readonly cancelledCards: CancelledCard[] = [];
  /** Whether the serial driver reports port names as C strings, U+0000 included (some do). */
  nulTerminatedPorts = false;
  private lastCardNumber: number;

  constructor(
    private readonly port: string,
    private readonly serialPorts: readonly string[],
    snapshot?: CardEncoderSnapshot,
  ) {
    this.lastCardNumber = snapshot?.lastCardNumber ?? 0x1a2b0000;
  }

  snapshot(): CardEncoderSnapshot {
    return { lastCardNumber: this.lastCardNumber };
  }

  setCardPresent(present: boolean): void {
    this.cardPresent = present;
    this.cardOnEncoder = undefined;
  }

  placeCard(cardNumber: string): void {
    this.cardPresent = true;
    this.cardOnEncoder = cardNumber;
  }

  /** A port with no encoder answers encoder_connected false; a port the desk does not have is encoder_not_found. */
  dllInfo(payload: Payload): { dll_version: string; encoder_connected: boolean } {
    const comPort = stringField(payload, 'com_port');
    if (!this.serialPorts.includes(comPort)) throw encoderNotFound(comPort);
    return { dll_version: ENCODER_DLL_VERSION, encoder_connected: comPort === this.port };
  }

  writeCard(payload: Payload): { card_number: string } {
    validateCardPayload(payload);
    this.requireCard(stringField(payload, 'com_port'));
    const cardNumber = (++this.lastCardNumber).toString(16).toUpperCase().padStart(8, '0');
    this.cardOnEncoder = cardNumber;
    this.cards.push({ card_number: cardNumber, payload, written_at: new Date().toISOString() });
    return { card_number: cardNumber };
  }

  cancelCard(payload: Payload): { card_number: string } {
    stringField(payload, 'hotel_info');
    this.requireCard(stringField(payload, 'com_port'));
    const cardNumber = this.cardOnEncoder;
    if (cardNumber === undefined) throw new CommandFailure('no_card', 'The card on the encoder is blank');
    this.cardOnEncoder = undefined;
    this.cancelledCards.push({ card_number: cardNumber, payload, cancelled_at: new Date().toISOString() });
    return { card_number: cardNumber };
  }

  private requireCard(comPort: string): void {
    if (comPort !== this.port) throw encoderNotFound(comPort);
    if (!this.cardPresent) {
      const driverPort = this.nulTerminatedPorts ? `${this.port}\u0000` : this.port;
      throw new CommandFailure(
        'no_card',
        this.nulTerminatedPorts ? `No card on the encoder at ${driverPort}` : 'No card on the encoder',
      );
    }
  }
}

function encoderNotFound(comPort: string): CommandFailure {
  return new CommandFailure('encoder_not_found', `No card encoder on ${comPort}`);
}

/** A lock's Bluetooth MAC as the TTLock SDK gives it: six hex pairs separated by colons. */
const LOCK_MAC = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/i;
/** A Windows serial port. */
const COM_PORT = /^COM[1-9]\d{0,2}$/;
/** Building and floor are one byte each on a TTLock hotel card. */
const MAX_CARD_BYTE = 255;

function validateCardPayload(payload: Payload): void {
  if (!COM_PORT.test(stringField(payload, 'com_port'))) throw invalidPayload('com_port must be a port such as COM3');
  stringField(payload, 'hotel_info');
  for (const field of ['build_no', 'floor_no']) {
    const value = integerField(payload, field);
    if (value < 0 || value > MAX_CARD_BYTE) throw invalidPayload(`${field} must be from 0 to ${MAX_CARD_BYTE}`);
  }
  const lockMacs = payload.lock_macs;
  const isMac = (mac: unknown) => typeof mac === 'string' && LOCK_MAC.test(mac);
  if (!Array.isArray(lockMacs) || lockMacs.length === 0 || !lockMacs.every(isMac)) {
    throw invalidPayload('lock_macs must be a non-empty list of lock MAC addresses such as AA:BB:CC:DD:EE:FF');
  }
  if (new Set(lockMacs.map((mac: string) => mac.toUpperCase())).size !== lockMacs.length) {
    throw invalidPayload('lock_macs must not name a lock twice');
  }
  const sectors = payload.sectors;
  const isSector = (sector: unknown) => Number.isInteger(sector) && (sector as number) >= 1 && (sector as number) <= 16;
  if (!Array.isArray(sectors) || sectors.length === 0 || !sectors.every(isSector)) {
    throw invalidPayload('sectors must be a non-empty list of integers from 1 to 16');
  }
  if (timeField(payload, 'valid_until') <= timeField(payload, 'valid_from')) {
    throw invalidPayload('valid_until must be after valid_from');
  }
}
