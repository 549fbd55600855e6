/**
 * Windows path forms, checked with `path.win32` semantics (there is no Windows machine in CI): the
 * same functions the CLI and folder workspaces use, given the Windows path module.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkspaceSpecs } from '../../cli/commands/serve.js';
import { layerList } from '../../cli/layers.js';
import { isInsideFolder } from '../../runtime/workspace/open-directory-workspace.js';
import { normalizeArchivePath } from '../../runtime/script/archive-path.js';

describe('Windows paths (path.win32 semantics)', () => {
  it('--workspace main=D:\\DNF\\Script.pvf keeps the drive and backslashes, and a relative folder resolves', () => {
    const [pvf, folder] = parseWorkspaceSpecs(['main=D:\\DNF\\Script.pvf', 'mine=.\\scripts'], path.win32);
    expect(pvf).toEqual({ name: 'main', root: 'D:\\DNF\\Script.pvf' });
    expect(path.win32.isAbsolute(folder?.root ?? '')).toBe(true);
    expect(folder?.root.endsWith('\\scripts')).toBe(true);
  });

  it('--layer .\\rules\\builtin is the builtin layer (not added twice), compared without case', () => {
    const builtin = 'C:\\Users\\me\\node_modules\\pvfdoc\\rules\\builtin';
    expect(layerList(['c:\\users\\ME\\node_modules\\pvfdoc\\rules\\builtin', '.\\rules\\mine'], false, builtin, path.win32)).toEqual([builtin, '.\\rules\\mine']);
    expect(layerList(['.\\rules\\mine'], true, null, path.win32)).toEqual(['.\\rules\\mine']);
  });

  it('a folder workspace keeps files inside its folder by the platform rules', () => {
    expect(isInsideFolder('D:\\DNF\\scripts', 'D:\\DNF\\scripts\\equipment\\a.equ', path.win32)).toBe(true);
    expect(isInsideFolder('D:\\DNF\\scripts', 'd:\\dnf\\SCRIPTS\\equipment\\a.equ', path.win32)).toBe(true);
    expect(isInsideFolder('D:\\DNF\\scripts', 'D:\\DNF\\scripts-old\\a.equ', path.win32)).toBe(false);
    expect(isInsideFolder('D:\\', 'D:\\a.equ', path.win32)).toBe(true);
    expect(isInsideFolder('D:\\DNF\\scripts', 'E:\\DNF\\scripts\\a.equ', path.win32)).toBe(false);
    // The same names are different folders where the platform is case-sensitive.
    expect(isInsideFolder('/dnf/scripts', '/dnf/SCRIPTS/a.equ', path.posix)).toBe(false);
  });

  it('archive paths typed with backslashes mean the same file', () => {
    expect(normalizeArchivePath('equipment\\character\\sword.equ')).toBe('equipment/character/sword.equ');
    expect(() => normalizeArchivePath('\\equipment\\sword.equ')).toThrow(/absolute/);
  });
});
