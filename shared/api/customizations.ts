import { z } from 'zod';
import { TimeWindow } from './common';

/** GET /api/customizations: what discovery loaded, skipped (and why) or failed to read, across sessions or in one. */
export const CustomizationsQuery = z.object({
  session: z.string().max(200).optional(),
  window: TimeWindow.default('all'),
  /** '1': only what was skipped or failed */
  skipped: z.enum(['0', '1']).default('0'),
});
export type CustomizationsQuery = z.input<typeof CustomizationsQuery>;

export const CustomizationKind = z.enum(['instruction', 'skill', 'agent', 'hook', 'prompt', 'other']);

export const CustomizationRow = z.object({
  kind: CustomizationKind,
  /** the exact name or path the entry reports */
  name: z.string(),
  status: z.enum(['loaded', 'skipped', 'failed']),
  reason: z.string().nullable(),
  /** what to change, in plain words, when the reason is known */
  fix: z.string().nullable(),
  sessions: z.number(),
  sessionIds: z.array(z.string()),
  lastSeen: z.number().nullable(),
  eventId: z.number(),
});
export type CustomizationRow = z.infer<typeof CustomizationRow>;

export const CustomizationsResponse = z.object({
  rows: z.array(CustomizationRow),
  folders: z.record(z.string(), z.array(z.string())),
  discoveryEvents: z.number(),
  capped: z.boolean(),
});
export type CustomizationsResponse = z.infer<typeof CustomizationsResponse>;
