import type { RoomStatus } from '../rooms';

export const TASK_CATEGORIES = ['housekeeping', 'maintenance'] as const;
export const TASK_PRIORITIES = ['urgent', 'medium', 'low'] as const;
export const TASK_STATUSES = ['pending', 'in_progress', 'done', 'cancelled'] as const;
export const ASSIGN_STRATEGIES = ['round_robin', 'least_loaded', 'first_free'] as const;

export type TaskCategory = (typeof TASK_CATEGORIES)[number];
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type AssignStrategy = (typeof ASSIGN_STRATEGIES)[number];

export interface HousekeepingTask {
  id: string;
  hotel_id: string;
  room_id: string | null;
  category: TaskCategory;
  priority: TaskPriority;
  status: TaskStatus;
  assignee_id: string | null;
  auto_assigned: boolean;
  source: 'manual' | 'checkout';
  /** The stay a turnover clean follows (its minibar consumption is charged to it). */
  booking_id: string | null;
  notes: string;
  photos: string[];
  resolution_notes: string;
  resolution_photos: string[];
  requires_minibar_check: boolean;
  minibar_checked_at: Date | null;
  created_by: string | null;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ChecklistItem {
  id: string;
  task_id: string;
  text: string;
  position: number;
  completed_at: Date | null;
  completed_by: string | null;
}

export interface HousekeepingSettings {
  hotel_id: string;
  checkout_auto: boolean;
  checkout_priority: TaskPriority;
  inspection_after_clean: boolean;
  require_completion_photo: boolean;
  emergency_close_days: number;
  auto_assign_strategy: AssignStrategy | null;
  /** The previous automatic picks (round_robin continues after them). */
  last_auto_housekeeping_id: string | null;
  last_auto_maintenance_id: string | null;
  updated_at: Date;
}

export type SettingsChanges = Partial<Omit<HousekeepingSettings, 'hotel_id' | 'updated_at'>>;

export interface NewTaskInput {
  room_id?: string | null;
  category: TaskCategory;
  priority?: TaskPriority;
  assignee_id?: string | null;
  notes?: string;
  photos?: string[];
  requires_minibar_check?: boolean;
}

export interface TaskChanges {
  status?: TaskStatus;
  assignee_id?: string | null;
  category?: TaskCategory;
  priority?: TaskPriority;
  notes?: string;
  photos?: string[];
  resolution_notes?: string;
  resolution_photos?: string[];
}

export interface TaskFilter {
  category?: TaskCategory;
  room_id?: string;
  status?: TaskStatus;
  assignee_id?: string;
  priority?: TaskPriority;
  date?: string;
}

export type { RoomStatus };
