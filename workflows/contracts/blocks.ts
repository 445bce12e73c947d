import { defineSignal } from '@temporalio/workflow';

/**
 * The release workflow's contract (`block-release:<blockId>`): one per block with a release rule. The blocks module
 * starts or wakes it (signal-with-start through the outbox) at every change of the block, and implements its activity.
 */
export interface BlockReleaseInput {
  hotelId: string;
  blockId: string;
}

/** The block changed (its rule, nights or status): the workflow asks again when the next release is due. */
export const blockChangedSignal = defineSignal<[]>('blockChanged');

export const blockReleaseWorkflowId = (blockId: string) => `block-release:${blockId}`;

export interface BlockReleaseActivities {
  /**
   * Releases what the block holds and has not picked up on the nights whose release time has come (staff told, once
   * per release); answers the milliseconds until the next night's release, or null when nothing is left to release.
   */
  releaseBlockNights(hotelId: string, blockId: string): Promise<number | null>;
}

export type BlockReleaseWorkflow = (input: BlockReleaseInput) => Promise<string>;
