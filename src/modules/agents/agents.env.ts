import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** A published agent release (AGENT_RELEASE_VERSION, _URL and _SHA256, all three together). */
export interface PublishedRelease {
  version: string;
  url: string;
  sha256: string;
}

/**
 * The agent release desks update to, when the deployment publishes one; otherwise the one the API ships with
 * (agents.release.ts).
 */
export const agentsEnv = {
  agentRelease: envSetting(
    Joi.object({
      AGENT_RELEASE_VERSION: Joi.string().pattern(/^\d+\.\d+\.\d+([-+][\w.]+)?$/, 'semver'),
      AGENT_RELEASE_URL: Joi.string()
        .uri({ scheme: ['https'] })
        .when('AGENT_RELEASE_VERSION', { is: Joi.exist(), then: Joi.required() }),
      AGENT_RELEASE_SHA256: Joi.string()
        .hex()
        .length(64)
        .when('AGENT_RELEASE_VERSION', { is: Joi.exist(), then: Joi.required() }),
    }),
    (values): PublishedRelease | undefined =>
      values.AGENT_RELEASE_VERSION && {
        version: values.AGENT_RELEASE_VERSION,
        url: values.AGENT_RELEASE_URL,
        sha256: values.AGENT_RELEASE_SHA256.toLowerCase(),
      },
  ),
};

export type AgentsConfig = ModuleConfig<SectionSettings<typeof agentsEnv>>;
