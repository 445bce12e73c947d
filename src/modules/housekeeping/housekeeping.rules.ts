import type { RoomStatus } from '../rooms';
import type { AssignStrategy, HousekeepingTask, TaskStatus } from './housekeeping.types';

/**
 * The task life cycle: pending -> in_progress -> done, with cancellation from either open state, a task put back
 * (in_progress -> pending) when its worker leaves it, and completion straight from pending for a quick job.
 * done and cancelled are final.
 */
const MOVES: Record<TaskStatus, readonly TaskStatus[]> = {
  pending: ['in_progress', 'done', 'cancelled'],
  in_progress: ['pending', 'done', 'cancelled'],
  done: [],
  cancelled: [],
};

export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return from === to || MOVES[from].includes(to);
}

/** The room as a status change sees it: what the board shows, and a closure for repairs if it has one. */
export interface RoomOnBoard {
  status: RoomStatus;
  maintenance_from?: Date | null;
  maintenance_to?: Date | null;
}

function closedForRepairs(room: RoomOnBoard, now: Date): boolean {
  return Boolean(
    room.maintenance_from && room.maintenance_to && room.maintenance_from <= now && room.maintenance_to > now,
  );
}

/**
 * What a status change does to the room: any task in progress, clean or repair, shows the room as `cleaning` (someone
 * is working in it); a finished clean leaves it `inspect` or `clean`; finished repairs leave a room that was closed or
 * worked in for them `dirty` (it needs a clean before guests); work put down leaves it `dirty`, or `maintenance` again
 * while a closure for repairs is still running. Undefined: the room is left as it is.
 */
export function roomStatusAfter(
  task: Pick<HousekeepingTask, 'category'>,
  from: TaskStatus,
  to: TaskStatus,
  room: RoomOnBoard,
  inspectionAfterClean: boolean,
  now = new Date(),
): RoomStatus | undefined {
  if (from === to) return undefined;
  if (to === 'in_progress') return 'cleaning';
  const workedIn = from === 'in_progress' && room.status === 'cleaning';
  if (to === 'done') {
    if (task.category === 'housekeeping') return inspectionAfterClean ? 'inspect' : 'clean';
    return room.status === 'maintenance' || workedIn ? 'dirty' : undefined;
  }
  if (!workedIn) return undefined;
  return closedForRepairs(room, now) ? 'maintenance' : 'dirty';
}

export interface AssignCandidate {
  id: string;
  openTasks: number;
}

/**
 * Picks the assignee among active staff of the right role, listed in a stable order:
 * round_robin takes the one after the previous automatic pick; least_loaded the one with the fewest open tasks;
 * first_free the first with no open task, or the least loaded when nobody is free.
 */
export function pickAssignee(
  strategy: AssignStrategy,
  candidates: readonly AssignCandidate[],
  previousPick: string | null,
): string | undefined {
  if (candidates.length === 0) return undefined;
  const leastLoaded = () => candidates.reduce((best, c) => (c.openTasks < best.openTasks ? c : best)).id;
  if (strategy === 'round_robin') {
    const index = candidates.findIndex((c) => c.id === previousPick);
    return candidates[(index + 1) % candidates.length].id;
  }
  if (strategy === 'first_free') return candidates.find((c) => c.openTasks === 0)?.id ?? leastLoaded();
  return leastLoaded();
}
