import type { TTLockHotelInfo, TTLockLock, TTLockLockDetail, TTLockPage, TTLockToken } from './types';

/** TTLock's JSON answers turned into this client's types; undefined when an answer lacks what it must hold. */

type Fields = Record<string, unknown>;

const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function toToken(body: Fields, receivedAt: number): TTLockToken | undefined {
  const accessToken = text(body.access_token);
  const refreshToken = text(body.refresh_token);
  const expiresIn = number(body.expires_in);
  if (!accessToken || !refreshToken || expiresIn === undefined) return undefined;
  return { accessToken, refreshToken, expiresAt: new Date(receivedAt + expiresIn * 1000), uid: number(body.uid) };
}

export function toLockPage(body: Fields): TTLockPage<TTLockLock> | undefined {
  const [pageNo, pageSize, pages, total] = [body.pageNo, body.pageSize, body.pages, body.total].map(number);
  if (!Array.isArray(body.list) || [pageNo, pageSize, pages, total].includes(undefined)) return undefined;
  const list = (body.list as unknown[]).map(toLock);
  if (list.includes(undefined)) return undefined;
  return { list: list as TTLockLock[], pageNo: pageNo!, pageSize: pageSize!, pages: pages!, total: total! };
}

/**
 * Only the fields named here are kept: a lock's answers also carry its lockData, admin code and super passcode, which
 * open the door and have no business in the PMS's memory, logs or database.
 */
export function toLock(input: unknown): TTLockLock | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const body = input as Fields;
  const lockId = number(body.lockId);
  if (lockId === undefined) return undefined;
  return {
    lockId,
    lockName: text(body.lockName) ?? '',
    lockAlias: text(body.lockAlias) ?? '',
    lockMac: text(body.lockMac) ?? '',
    electricQuantity: number(body.electricQuantity),
    hasGateway: body.hasGateway === undefined ? undefined : body.hasGateway === 1,
    groupId: number(body.groupId),
    groupName: text(body.groupName),
    buildingNumber: number(body.buildingNumber),
    floorNumber: number(body.floorNumber),
    initializedAt: number(body.date),
  };
}

export function toLockDetail(body: Fields): TTLockLockDetail | undefined {
  const lock = toLock(body);
  if (!lock) return undefined;
  return {
    ...lock,
    modelNum: text(body.modelNum),
    hardwareRevision: text(body.hardwareRevision),
    firmwareRevision: text(body.firmwareRevision),
    timezoneRawOffset: number(body.timezoneRawOffset),
    autoLockTime: number(body.autoLockTime),
  };
}

/** How long a hotelInfo is used: it is valid for about 10 minutes, so a card is written with a fresh one. */
export const HOTEL_INFO_LIFETIME_MS = 10 * 60_000;

export function toHotelInfo(body: Fields, receivedAt: number): TTLockHotelInfo | undefined {
  const hotelInfo = text(body.hotelInfo);
  if (!hotelInfo) return undefined;
  return { hotelInfo, expiresAt: new Date(receivedAt + HOTEL_INFO_LIFETIME_MS) };
}
