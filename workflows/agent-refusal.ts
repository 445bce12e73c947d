import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { AGENT_UNREACHABLE, type AgentRefusal } from './contracts/agents';

const isRefusal = (detail: unknown): detail is AgentRefusal =>
  typeof detail === 'object' && detail !== null && typeof (detail as AgentRefusal).code === 'string';

/**
 * Why a desk's operation did not happen, as its record keeps it: the refusal's code (the agent's, or a service's,
 * carried in the failure's details) with the failure's words for staff; `agent_unreachable` for a desk that is gone;
 * `deadline_exceeded` for a desk that stayed silent until the command's deadline. `codes` names other failure types.
 */
export function refusalOf(error: unknown, codes: Record<string, string> = {}): AgentRefusal {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (!(cause instanceof ApplicationFailure)) return { code: 'deadline_exceeded', message: '' };
  const [detail] = (cause.details ?? []) as unknown[];
  if (isRefusal(detail)) return { code: detail.code, message: cause.message };
  const code = cause.type === AGENT_UNREACHABLE ? 'agent_unreachable' : cause.type && codes[cause.type];
  return { code: code || 'deadline_exceeded', message: cause.message };
}
