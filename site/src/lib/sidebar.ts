/**
 * The sidebar of wide screens: every file type, and under the current one its section groups. On a
 * type's own page every group lists its sections (collapsed); elsewhere only the group of the current
 * section does, so a page's size does not grow with the number of sections of its type (a type has up to
 * a few hundred, and every definition page of it carries the sidebar).
 */
import type { SiteModel } from './model.js';
import { groupAnchor, typeSectionHref } from './type-index.js';

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
          return {
            label: g.def.label,
            path: `${entry.path}#${groupAnchor(g.def)}`,
            sectionCount: g.sections.length,
            sections: listed
              ? g.sections.map((s) => ({ text: `[${s.name}]`, title: s.titles[0] ?? '', path: typeSectionHref(entry, s.key), current: s.key === current.sectionKey }))
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
