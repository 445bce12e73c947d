/**
 * The agent release workstations update to. The release pipeline rewrites this file when it publishes a build (and
 * the API ships with it), so every replica answers the same release; `null`s mean none has been published yet.
 */
export interface AgentRelease {
  version: string;
  url: string | null;
  sha256: string | null;
  notes: string;
  published_at: string | null;
}

export const LATEST_AGENT_RELEASE: AgentRelease = {
  version: '0.0.0',
  url: null,
  sha256: null,
  notes: 'Сборка агента ещё не опубликована',
  published_at: null,
};
