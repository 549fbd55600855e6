/**
 * The script view of rule-format §3.4/§3.5: sections (with nesting) and the direct value tokens of each
 * section occurrence, with UTF-16 spans into the normalised text.
 *
 * Structure rules (pvfine's `ParseScriptView`, plus the nested-section rule of §3.5):
 * - a section name is *paired* when a closing tag with exactly that name (case-sensitive) appears
 *   anywhere in the file; every opening of a paired name lasts until its closing tag, while an unpaired
 *   (legacy) section lasts until the next tag;
 * - an opening tag first pops the unpaired sections on top of the stack, except that an unpaired
 *   section stays (and the new one nests inside it) when `allowNested(parentName, childName)` says so;
 *   the new section is a child of whatever is then on top;
 * - a closing tag pops the unpaired sections on top, then closes the nearest open paired section of
 *   that exact name (and everything above it); tokens after `[/child]` count for the parent again.
 */
import { lexScript, type ScriptTokenType, type ScriptWarning, type TextSpan } from './lex-script.js';

export interface ScriptSection {
  /** 1, 2, 3… in order of opening tags. */
  id: number;
  /** The name as written (case and spaces kept). */
  name: string;
  /** Span of the opening tag, brackets included. */
  start: number;
  end: number;
  /** Enclosing section, null at top level. */
  parentId: number | null;
  /** 0 at top level. */
  depth: number;
  /** Whether the name has a closing tag somewhere in the file. */
  paired: boolean;
  /** 0-based ordinal among all sections of the same name (compared case-insensitively), in text order. */
  occurrence: number;
  /** Number of direct tokens (tokens of child sections excluded). */
  tokenCount: number;
}

export interface ScriptTokenElement {
  /** Enclosing (innermost) section; 0 before any section. */
  sectionId: number;
  /** Its name as written; "" before any section. */
  sectionName: string;
  /** Ordinal among the direct tokens of that section occurrence; -1 before any section. */
  index: number;
  start: number;
  end: number;
  type: ScriptTokenType;
  /** Canonical value (lex-script.ts). */
  value: string;
}

export interface ScriptView {
  /** The text the offsets refer to (callers pass normalised text). */
  text: string;
  /** All sections; `sections[id - 1]` has that id. */
  sections: ScriptSection[];
  /** All value tokens in text order. */
  tokens: ScriptTokenElement[];
  comments: TextSpan[];
  /** Lexer and structure problems, by position. */
  warnings: ScriptWarning[];
}

/** Whether a section named `child` may open inside the unpaired section `parent` (§3.5). */
export type AllowNested = (parent: string, child: string) => boolean;

/**
 * Section names compare case-insensitively everywhere (rules, rendering rules, occurrences). pvfine
 * uses Go's `strings.EqualFold`; lower-casing agrees with it for every name that is not made of rare
 * fold-only letters such as U+017F (ſ).
 */
export function foldSectionName(name: string): string {
  return name.toLowerCase();
}

/**
 * Parses normalised script text into its view. Never throws. Without `allowNested` no section nests
 * inside an unpaired one (plain `ParseScriptView`).
 */
export function parseScriptView(text: string, allowNested?: AllowNested): ScriptView {
  const lexed = lexScript(text);
  const pairedNames = new Set<string>();
  for (const token of lexed.tokens) if (token.kind === 'close') pairedNames.add(token.name);

  const sections: ScriptSection[] = [];
  const tokens: ScriptTokenElement[] = [];
  const warnings: ScriptWarning[] = [...lexed.warnings];
  const occurrences = new Map<string, number>();
  const stack: ScriptSection[] = [];
  // Open paired sections per name, so a closing tag that matches nothing costs O(1), not O(depth).
  const openPaired = new Map<string, number>();
  const top = (): ScriptSection | undefined => stack[stack.length - 1];
  const pop = (): void => {
    const section = stack.pop();
    if (section?.paired) openPaired.set(section.name, (openPaired.get(section.name) ?? 1) - 1);
  };

  for (const token of lexed.tokens) {
    if (token.kind === 'open') {
      for (let t = top(); t && !t.paired && !(allowNested?.(t.name, token.name) ?? false); t = top()) pop();
      const parent = top();
      const folded = foldSectionName(token.name);
      const occurrence = occurrences.get(folded) ?? 0;
      occurrences.set(folded, occurrence + 1);
      const section: ScriptSection = {
        id: sections.length + 1,
        name: token.name,
        start: token.start,
        end: token.end,
        parentId: parent ? parent.id : null,
        depth: parent ? parent.depth + 1 : 0,
        paired: pairedNames.has(token.name),
        occurrence,
        tokenCount: 0,
      };
      sections.push(section);
      stack.push(section);
      if (section.paired) openPaired.set(section.name, (openPaired.get(section.name) ?? 0) + 1);
    } else if (token.kind === 'close') {
      for (let t = top(); t && !t.paired; t = top()) pop();
      if ((openPaired.get(token.name) ?? 0) > 0) {
        // Close the nearest open section of that name and everything opened inside it.
        for (let t = top(); t; t = top()) {
          pop();
          if (t.name === token.name) break;
        }
      } else {
        warnings.push({
          code: 'STRAY_CLOSING_TAG',
          message: `closing tag [/${token.name}] does not close any open section [${token.name}]`,
          start: token.start,
          end: token.end,
        });
      }
    } else {
      const section = top();
      tokens.push({
        sectionId: section ? section.id : 0,
        sectionName: section ? section.name : '',
        index: section ? section.tokenCount++ : -1,
        start: token.start,
        end: token.end,
        type: token.type,
        value: token.value,
      });
    }
  }
  for (const section of stack) {
    if (!section.paired) continue;
    warnings.push({
      code: 'UNCLOSED_SECTION',
      message: `section [${section.name}] is never closed by its [/${section.name}]; it runs to the end of the file`,
      start: section.start,
      end: section.end,
    });
  }
  warnings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { text, sections, tokens, comments: lexed.comments, warnings };
}

/**
 * Names from the top-level section down to section `id` (pvfine's section path); [] for id 0. Derived
 * on demand: storing it per section would cost quadratic memory on deeply nested input.
 */
export function sectionPath(view: ScriptView, id: number): string[] {
  const names: string[] = [];
  for (let section = view.sections[id - 1]; section; section = section.parentId === null ? undefined : view.sections[section.parentId - 1]) {
    names.push(section.name);
  }
  return names.reverse();
}
