/** What every part of `npm run seed` shares: the API's address, calls as a signed-in member, the hotel's calendar. */

export const API_URL = (process.env.API_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
/** Every demo account, the owner's and the staff's, signs in with it. */
export const PASSWORD = 'demo-password-1';

export class SeedError extends Error {}

export class ApiError extends SeedError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

// ---- dates on the hotel's calendar (Europe/Moscow, UTC+3 all year since 2014) ----

export const HOTEL_UTC_OFFSET = '+03:00';
export const HOTEL_OFFSET_MS = 3 * 3_600_000;
export const DAY_MS = 86_400_000;

export const today = new Date(Date.now() + HOTEL_OFFSET_MS).toISOString().slice(0, 10);
export const thisYear = Number(today.slice(0, 4));
export const date = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
/** The year in which month/day is today or still ahead. */
export const upcomingYear = (month: number, day: number) =>
  date(thisYear, month, day) >= today ? thisYear : thisYear + 1;
/** The date `offset` days from today (the plan counts in such offsets). */
export const dayAt = (offset: number) => new Date(Date.parse(today) + offset * DAY_MS).toISOString().slice(0, 10);
/** An instant at a hotel-local time of the day `offset` days from today. */
export const hotelTime = (offset: number, time: string) => `${dayAt(offset)}T${time}:00${HOTEL_UTC_OFFSET}`;

// ---- HTTP ----

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
/** Calls of the hotel's routes (`path` below /api/hotels/{slug}) as one signed-in member. */
export type Api = <T = unknown>(method: Method, path: string, body?: unknown) => Promise<T>;

/** One call of the API; anything but 2xx throws with the answer's body. */
export async function request<T>(method: Method, path: string, body?: unknown, accessToken?: string): Promise<T> {
  const response = await fetch(`${API_URL}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(accessToken && { authorization: `Bearer ${accessToken}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(`${method} ${path} answered ${response.status}: ${text}`, response.status);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function assertApiReachable(): Promise<void> {
  const healthy = await fetch(`${API_URL}/health`).then(
    (response) => response.ok,
    () => false,
  );
  if (!healthy) throw new SeedError(`the API at ${API_URL} is not reachable; start it with \`npm run dev\` first`);
}

export interface Member {
  hotelSlug: string;
  id: string;
  name: string;
  role: string;
  email: string;
  api: Api;
}

/** The demo staff by role: who does what. */
export interface Team {
  owner: Member;
  manager: Member;
  desk: Member[];
  accountant: Member;
  housekeepers: Member[];
  technician: Member;
  security: Member;
  /** Every member by user id, to act as a task's assignee. */
  byId: Map<string, Member>;
}

export async function signIn(email: string): Promise<Member> {
  const { access_token, user } = await request<{
    access_token: string;
    user: { id: string; name: string; role: string; hotelSlug: string };
  }>('POST', '/api/auth/login', { email, password: PASSWORD });
  const api: Api = <T>(method: Method, path: string, body?: unknown) =>
    request<T>(method, `/api/hotels/${user.hotelSlug}${path}`, body, access_token);
  return { hotelSlug: user.hotelSlug, id: user.id, name: user.name, role: user.role, email, api };
}
