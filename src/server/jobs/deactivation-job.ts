// The processing of a deactivation request (SPEC section 4: asynchronous; how is not shown): one
// transaction in services/deactivations.ts. Idempotent, as every job must be: a retry, or a second
// run of the same request, finds it completed and changes nothing.
import { z } from 'zod';
import { failDeactivation, processDeactivation } from '../services/deactivations';
import type { JobFailureHandler, JobHandler } from './job-runner';

/** What the request route enqueues. */
export const deactivationJobDataSchema = z.object({ requestId: z.uuid() });
export type DeactivationJobData = z.infer<typeof deactivationJobDataSchema>;

export const runProcessDeactivation: JobHandler = async ({ db, log }, data) => {
  const { requestId } = deactivationJobDataSchema.parse(data);
  const outcome = await processDeactivation(db, requestId);
  log.info({ requestId, outcome }, 'deactivation processed');
};

/** The last retry failed: the request is marked FAILED and its organization told (failDeactivation). */
export const deactivationFailed: JobFailureHandler = async ({ db, log }, data) => {
  const parsed = deactivationJobDataSchema.safeParse(data);
  if (!parsed.success) return;
  const outcome = await failDeactivation(db, parsed.data.requestId);
  log.warn({ requestId: parsed.data.requestId, outcome }, 'deactivation failed for good');
};
