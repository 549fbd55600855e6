/**
 * The sidebar of wide screens: every file type, and under the current one its section groups. On a
 * type's own page every group lists its sections (collapsed); elsewhere only the group of the current
 * section does, and of a long group only a window around the current section (every definition page
 * carries the sidebar: listing a whole group of thousands on each would make the site quadratic).
 */
import type { SiteModel } from './model.js';
import { groupAnchor, typeSectionHref } from './type-index.js';

/** Sections listed around the current one in a group on a definition page (the rest behind a link). */
export const SIDEBAR_SECTION_WINDOW = 30;

export interface SidebarCurrent {
  /** The current file type (".equ"; null: the definitions without one); undefined: none. */
  extension?: string | null;
  /** The current section (its key), whose group is listed and open. */
  sectionKey?: string | null;
  /** The type's own page: every group lists its sections. */
  allSections?: boolean;
}

export interface SidebarSection {
  text: string;
  title: string;
  path: string;
  current: boolean;
}

export interface SidebarGroup {
  label: string;
  path: string;
  sectionCount: number;
  /** Listed sections (null: the group is only a link). */
  sections: SidebarSection[] | null;
  /** Sections of the group not listed (a long group on a definition page); `path` shows them all. */
  hidden: number;
  open: boolean;
}

export interface SidebarType {
  extension: string | null;
  text: string;
  name: string;
  path: string;
  current: boolean;
  groups: SidebarGroup[];
}

export function sidebarView(model: SiteModel, current: SidebarCurrent): SidebarType[] {
  return model.types.map((entry) => {
    const isCurrent = current.extension !== undefined && entry.extension === current.extension;
    const groups: SidebarGroup[] = !isCurrent
      ? []
      : entry.groups.map((g) => {
          const holdsCurrent = current.sectionKey != null && g.sections.some((s) => s.key === current.sectionKey);
          const listed = current.allSections === true || holdsCurrent;
          let shown = g.sections;
          if (listed && current.allSections !== true && shown.length > SIDEBAR_SECTION_WINDOW) {
            const at = shown.findIndex((s) => s.key === current.sectionKey);
            const from = Math.max(0, Math.min(at - (SIDEBAR_SECTION_WINDOW >> 1), shown.length - SIDEBAR_SECTION_WINDOW));
            shown = shown.slice(from, from + SIDEBAR_SECTION_WINDOW);
          }
          return {
            label: g.def.label,
            path: `${entry.path}#${groupAnchor(g.def)}`,
            sectionCount: g.sections.length,
            hidden: listed ? g.sections.length - shown.length : 0,
            sections: listed
              ? shown.map((s) => ({ text: `[${s.name}]`, title: s.titles[0] ?? '', path: typeSectionHref(entry, s.key), current: s.key === current.sectionKey }))
              : null,
            open: holdsCurrent,
          };
        });
    return {
      extension: entry.extension,
      text: entry.extension ?? entry.name,
      name: entry.extension === null ? '' : entry.name,
      path: entry.path,
      current: isCurrent,
      groups,
    };
  });
}
