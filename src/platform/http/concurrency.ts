import type { Response } from 'express';
import { PreconditionFailedError, ValidationError } from '../errors';

/**
 * Optimistic concurrency on records whose `updated_at` is their version. A record's answer carries its version as a
 * strong `ETag`; a write that sends it back in `If-Match` is applied only to that version of the record.
 */

/** What `If-Match` asked for: any existing version (`*`), or one of these versions (`updated_at` in epoch ms). */
export type ExpectedVersion = '*' | readonly number[];

/** The version of a record as the database gives it to us (JavaScript dates keep milliseconds). */
export type Version = Date | string;

function epochMs(version: Version): number {
  return new Date(version).getTime();
}

/** The strong entity tag of a version: opaque to clients, the same for every answer of that version. */
export function entityTag(version: Version): string {
  return `"${epochMs(version).toString(36)}"`;
}

/** An entity tag as RFC 9110 §8.8.3 writes it: optionally weak, quoted, no quotes or controls inside. */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** The version a strong tag of ours names; undefined for a weak tag or one we never issued (they match nothing). */
function versionOfTag(tag: string): number | undefined {
  const [, weak, opaque] = ENTITY_TAG.exec(tag)!;
  if (weak || !/^[0-9a-z]{1,12}$/.test(opaque)) return undefined;
  const epoch = parseInt(opaque, 36);
  return Number.isSafeInteger(epoch) && !Number.isNaN(new Date(epoch).getTime()) ? epoch : undefined;
}

/** Gives the record a route answers (a JSON body with `updated_at`) its version as `ETag`; refusals carry none. */
export function tagAnswerWithVersion(res: Response): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const version = (body as { updated_at?: unknown } | null)?.updated_at;
    const dated = version instanceof Date || typeof version === 'string';
    if (res.statusCode < 300 && dated && !Number.isNaN(epochMs(version))) res.set('ETag', entityTag(version));
    return json(body);
  };
}

export const ifMatchMessage = 'Заголовок If-Match должен быть «*» или списком ETag через запятую, например "lx2k9a1b"';

/**
 * `If-Match` of a request: undefined without one, else what it accepts. A weak tag never matches (RFC 9110 compares
 * `If-Match` strongly); a value that is not a list of entity tags is a 400.
 */
export function parseIfMatch(header: string | undefined): ExpectedVersion | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return '*';
  const tags = value.split(',').map((tag) => tag.trim());
  if (value === '' || !tags.every((tag) => ENTITY_TAG.test(tag))) {
    throw new ValidationError(ifMatchMessage, [{ path: 'headers.if-match', message: ifMatchMessage }]);
  }
  return tags.map(versionOfTag).filter((epoch): epoch is number => epoch !== undefined);
}

export function versionMatches(expected: ExpectedVersion, version: Version): boolean {
  return expected === '*' || expected.includes(epochMs(version));
}

/** For a record the caller has locked for its transaction: refuses the write unless it is the version expected. */
export function assertVersion(expected: ExpectedVersion | undefined, version: Version): void {
  if (expected !== undefined && !versionMatches(expected, version)) throw new PreconditionFailedError();
}

/**
 * Why a write of one record, conditioned on its version in its own statement (`atVersion`), touched nothing: the
 * record is there in another version (412), or there is no such record.
 */
export async function missingOrStale(
  expected: ExpectedVersion | undefined,
  stillThere: () => Promise<unknown>,
  notFound: Error,
): Promise<Error> {
  if (expected === undefined || !(await stillThere())) return notFound;
  return new PreconditionFailedError();
}
