/**
 * The one way the views make elements. Everything a tool result or a document says is set as text
 * (`textContent`, text nodes), never parsed as HTML, so a rule's content or a file's text cannot add
 * markup, scripts or requests to the view.
 */

type Child = Node | string | null | undefined | false;

interface ElementOptions {
  className?: string;
  /** Attributes set with setAttribute (values are text). */
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A definition-list row pair, left out when the value is empty. */
export function field(label: string, value: string | Node | null | undefined): Node[] {
  if (value === null || value === undefined || value === '') return [];
  return [el('dt', {}, label), el('dd', {}, value)];
}

export function fieldList(rows: Node[][], className = 'fields'): HTMLDListElement {
  const list = el('dl', { className });
  for (const row of rows) append(list, ...row);
  return list;
}

/** Makes a non-button element act as one: focusable, announced as a button, Enter and Space click it. */
export function asButton(element: HTMLElement, label: string): void {
  element.tabIndex = 0;
  element.setAttribute('role', 'button');
  element.setAttribute('aria-label', label);
}

export function onActivate(container: HTMLElement, selector: string, handler: (target: HTMLElement) => void): void {
  container.addEventListener('click', (event) => {
    const target = (event.target as Element | null)?.closest<HTMLElement>(selector);
    if (target && container.contains(target)) handler(target);
  });
  container.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const target = (event.target as Element | null)?.closest<HTMLElement>(selector);
    if (!target || !container.contains(target) || target instanceof HTMLButtonElement) return;
    event.preventDefault();
    handler(target);
  });
}
