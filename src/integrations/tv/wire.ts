/**
 * Our TV-system wire format (the NetUP one is not public). Pushes: `POST {server_url}/pms/v1/checkin` and
 * `/pms/v1/checkout`, a JSON body `TvPushBody`, no credential (the TV server lives on the hotel's network). Any 2xx is
 * accepted; 4xx (but 408 and 429) is a refusal that repeating will not change; 5xx, 408, 429 and no answer are worth
 * repeating. The same request goes out directly or through a desk's agent (`http_request`), so both paths build it
 * here and read the answer here.
 */

export type TvEvent = 'check_in' | 'check_out';

export interface TvStay {
  /** The TV system's room number (the hotel's mapping of our room). */
  room: string;
  firstName: string;
  lastName: string;
  /** ISO 639-1 language of the guest's screens. */
  language: string;
  arrival: Date;
  departure: Date;
  /** An opaque id of the stay, the same for its check-in and check-out: the TV system matches them by it. */
  reference: string;
}

export interface TvPushBody {
  room: string;
  guest: { first_name: string; last_name: string };
  language: string;
  arrival: string;
  departure: string;
  reference: string;
}

/** An HTTP request as the agents' `http_request` command carries it (the body a string). */
export interface TvHttpRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type TvOutcome =
  | { kind: 'ok'; status: number }
  | { kind: 'refused'; status: number; detail: string }
  | { kind: 'retryable'; status: number | null; detail: string };

const PATHS: Record<TvEvent, string> = { check_in: '/pms/v1/checkin', check_out: '/pms/v1/checkout' };

export const TV_USER_AGENT = 'hotel-pms-tv/1';

/** `{server_url}/pms/v1/...` (one slash between, whatever the URL ends with). */
export function tvUrl(serverUrl: string, event: TvEvent): string {
  return `${serverUrl.replace(/\/+$/, '')}${PATHS[event]}`;
}

export function pushBody(stay: TvStay): TvPushBody {
  return {
    room: stay.room,
    guest: { first_name: stay.firstName, last_name: stay.lastName },
    language: stay.language,
    arrival: stay.arrival.toISOString(),
    departure: stay.departure.toISOString(),
    reference: stay.reference,
  };
}

export function buildRequest(serverUrl: string, event: TvEvent, stay: TvStay): TvHttpRequest {
  return {
    method: 'POST',
    url: tvUrl(serverUrl, event),
    headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': TV_USER_AGENT },
    body: JSON.stringify(pushBody(stay)),
  };
}

/** The TV system's own words, when it answered `{ "error": "..." }`: short, for the log. */
function reasonOf(body: string | undefined): string {
  if (!body) return '';
  try {
    const parsed: unknown = JSON.parse(body);
    const error = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).error : undefined;
    return typeof error === 'string' ? `: ${error.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/** What an answer means, whichever path brought it. */
export function interpretResponse(status: number, body?: string): TvOutcome {
  if (status >= 200 && status < 300) return { kind: 'ok', status };
  const detail = `HTTP ${status}${reasonOf(body)}`;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { kind: 'refused', status, detail };
  // 3xx too: redirects are not followed (the address would escape the check made before connecting).
  if (status < 400) return { kind: 'refused', status, detail: `${detail} (перенаправления не выполняются)` };
  return { kind: 'retryable', status, detail };
}
