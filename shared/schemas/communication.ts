import { z } from 'zod';
import { COMMUNICATION_PRIORITIES, COMMUNICATION_STATUSES, COMMUNICATION_TYPES } from '../enums.ts';
import { Id, RequiredText } from './common.ts';

/**
 * POST /api/communications (spec 01 sections 5 and 7; DECISIONS.md: the body is sent and stored). Subject,
 * message and project are required; type defaults to message, priority to normal, status to open. The
 * sender (fromUserId, fromEmail, fromName) is always the session user.
 */
export const CommunicationCreateSchema = z.strictObject({
  id: Id.optional(),
  projectId: Id,
  subject: RequiredText('Subject', 200),
  message: RequiredText('Message', 10_000),
  type: z.enum(COMMUNICATION_TYPES).default('message'),
  priority: z.enum(COMMUNICATION_PRIORITIES).default('normal'),
  status: z.enum(COMMUNICATION_STATUSES).default('open'),
});

/** GET /api/communications?projectId=&type= : the feed's project filter and its Messages/Disputes/Invoices tabs. */
export const CommunicationListQuerySchema = z.object({
  projectId: Id.optional(),
  type: z.enum(COMMUNICATION_TYPES).optional(),
});

export type CommunicationCreate = z.infer<typeof CommunicationCreateSchema>;
export type CommunicationListQuery = z.infer<typeof CommunicationListQuerySchema>;
