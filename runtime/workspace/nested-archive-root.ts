/**
 * A folder workspace is read with its root as the archive root: path-scoped rules (`etc/…`), `.lst`
 * lookups and string links all name paths from there. A folder that holds the archive one level down
 * (`Script/equipment/…`, or several extracted archives side by side) still lists and reads, but those
 * all miss, silently; this names the folder to open instead.
 */

/** Top-level folders of a script archive (the ones every client version has); two of them under a folder make it an archive root. */
const ARCHIVE_TOP_FOLDERS = new Set(['aicharacter', 'character', 'creature', 'dungeon', 'equipment', 'etc', 'monster', 'npc', 'passiveobject', 'skill', 'stackable', 'map', 'n_quest', 'worldmap']);

/** How many of them a folder must hold to count as an archive root. */
const ENOUGH = 2;

/** Most folders the warning names. */
const NAMED = 3;

/**
 * A warning when the root holds none of the archive's top-level folders but some of its folders do;
 * null otherwise. `children(folder)` lists the subfolder names of a folder ("" = the root; a root
 * folder by its name as listed), as written on disk: the warning names the folder to open, and on a
 * case-sensitive disk only its own spelling opens it.
 */
export function nestedArchiveRootWarning(children: (folder: string) => readonly string[]): string | null {
  const isTop = (name: string) => ARCHIVE_TOP_FOLDERS.has(name.toLowerCase());
  const top = children('');
  if (top.some(isTop)) return null;
  const roots = top.filter((name) => children(name).filter(isTop).length >= ENOUGH);
  if (roots.length === 0) return null;
  const named = roots.slice(0, NAMED).map((name) => `${name}/`).join(', ');
  const more = roots.length > NAMED ? ` and ${roots.length - NAMED} more` : '';
  return (
    `the archive's top-level folders (equipment/, etc/, skill/ …) are one level down, in ${named}${more}: ` +
    'paths are read from the workspace root, so path-scoped rules, .lst lookups and string links do not apply here; ' +
    `open ${roots.length === 1 ? 'that folder' : 'one of those folders'} as the workspace (--workspace <name>=<this folder>/${roots[0] ?? ''})`
  );
}
