/**
 * What explain asks of a workspace's lookups and what it gets back (rule-format §4.3): the contract
 * between the annotator, which reads no archive, and the resolvers of this folder.
 */
import { z } from 'zod';

export const ResolutionStatusSchema = z.enum(['resolved', 'missing', 'context_required', 'unsupported']);
type ResolutionStatus = z.infer<typeof ResolutionStatusSchema>;

/** What a link found in a file (a path, a string table entry) resolves to: there is no context to lack. */
export const LinkResolutionStatusSchema = ResolutionStatusSchema.extract(['resolved', 'missing', 'unsupported']);
export type LinkResolutionStatus = z.infer<typeof LinkResolutionStatusSchema>;

export interface ReferenceQuery {
  relation: string;
  /** The token value. */
  id: string;
  /** The record's context token value, when the rule or its contextual relation names one. */
  context: string | null;
}

export interface ReferenceResolution {
  status: ResolutionStatus;
  /** Display name of the target (its `nameSection` token); null or "" when unknown. */
  name: string | null;
  /** Archive path of the target file. */
  path: string | null;
}

/** Looks an id up through a relation (§4.3). */
export type ResolveReference = (query: ReferenceQuery) => ReferenceResolution;

/** The archive's own path of a file (case-insensitive lookup), or null when it does not exist. */
export type ResolvePath = (archivePath: string) => string | null;
