/**
 * Chinese wording of the bundle's enumerations, shared by the pages and the browser search. Each map is
 * checked against its enum's type, so a new value cannot go without a label; they stay string-keyed
 * because the pages look up values they read as strings.
 */
import type { AnnotationType, DefinitionKind, Origin, RelationKind, SourceCategory, TargetKind, Trust, VersionState } from '../../../runtime/bundle/schema.js';

export const KIND_LABEL: Record<string, string> = { rule: '规则', field: '共享字段' } satisfies Record<DefinitionKind, string>;
export const ORIGIN_LABEL: Record<string, string> = { configured: '配置', generated: '隐式字段规则' } satisfies Record<Origin, string>;
export const SOURCE_LABEL: Record<string, string> = { builtin: '内置', user: '用户', unknown: '未知' } satisfies Record<SourceCategory, string>;
export const TARGET_KIND_LABEL: Record<string, string> = { path: '路径', section: '段', token: '标记值' } satisfies Record<TargetKind, string>;
export const ANNOTATION_TYPE_LABEL: Record<string, string> = { text: '文本', enum: '枚举', reference: '引用', path: '路径', image: '图片' } satisfies Record<AnnotationType, string>;
export const STATE_LABEL: Record<string, string> = {
  effective: '生效',
  overridden: '被覆盖',
  disabled: '已禁用',
  notApplicable: '不适用',
  suppressed: '被抑制',
} satisfies Record<VersionState, string>;
/** pvfdoc extension `trust`: how far a definition can be trusted. */
export const TRUST_LABEL: Record<string, string> = { confirmed: '已确认', likely: '较可信', unverified: '未验证' } satisfies Record<Trust, string>;
export const RELATION_KIND_LABEL: Record<string, string> = { list: '列表', contextual: '上下文', union: '联合' } satisfies Record<RelationKind, string>;

export function label(map: Record<string, string>, key: string | null | undefined): string {
  if (key === null || key === undefined) return '—';
  return map[key] ?? key;
}

/** A version context for people: "" is an archive whose version is unknown. */
export function versionLabel(version: string): string {
  return version === '' ? '未知版本' : version;
}
