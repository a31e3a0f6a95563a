// The processing of a deactivation request (SPEC section 4: asynchronous; how is not shown): one
// transaction in deactivation-repository.ts. Idempotent, as every job must be: a retry, or a second
// run of the same request, finds it completed and changes nothing.
import { z } from 'zod';
import { processDeactivation } from '../db/deactivation-repository';
import type { JobHandler } from './job-runner';

/** What the request route enqueues. */
export const deactivationJobDataSchema = z.object({ requestId: z.uuid() });
export type DeactivationJobData = z.infer<typeof deactivationJobDataSchema>;

export const runProcessDeactivation: JobHandler = async ({ db, log }, data) => {
  const { requestId } = deactivationJobDataSchema.parse(data);
  const outcome = await processDeactivation(db, requestId);
  log.info({ requestId, outcome }, 'deactivation processed');
};
