export interface PollAnswer {
  status: number;
  body: { reservations?: Record<string, unknown>[]; [key: string]: unknown };
}

/**
 * What the TV system does every few seconds: asks `/tvpms` for the stays in house, with its token in the header
 * (`header`), in the URL (`query`) or not at all (`none`), naming its hotel (`?hotel=`) when it is configured to.
 */
export async function pollTvpms(
  apiUrl: string,
  token: string | undefined,
  {
    method = 'GET',
    via = 'header',
    hotel,
  }: { method?: string; via?: 'header' | 'query' | 'none'; hotel?: string } = {},
): Promise<PollAnswer> {
  const url = new URL('/tvpms', apiUrl);
  if (hotel !== undefined) url.searchParams.set('hotel', hotel);
  const headers: Record<string, string> = {};
  if (token !== undefined && via === 'query') url.searchParams.set('token', token);
  if (token !== undefined && via === 'header') headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method, headers });
  return { status: response.status, body: (await response.json()) as PollAnswer['body'] };
}
