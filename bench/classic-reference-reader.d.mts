/** Types of classic-reference-reader.mjs (a plain JS file, so the reference stays free of pvfdoc's build). */
export interface ReferenceArchive {
  /** Distinct names in the tree. */
  readonly fileCount: number;
  /** `#PVF_File` text of the compiled script at `name` (case-insensitive). */
  decompile(name: string): string;
}

export function openReference(file: string, encoding: string): ReferenceArchive;
