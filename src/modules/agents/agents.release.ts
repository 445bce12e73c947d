/**
 * The agent release workstations update to. The release pipeline rewrites this file when it publishes a build (and
 * the API ships with it), so every replica answers the same release; `null`s mean none has been published yet.
 */
export const LATEST_AGENT_RELEASE = {
  version: '0.0.0',
  url: null as string | null,
  sha256: null as string | null,
  notes: 'Сборка агента ещё не опубликована',
  published_at: null as string | null,
};
