/** Small DOM helpers: the console builds its pages from elements, never from HTML strings (no injection, CSP-clean). */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

/** A page's frame: its heading first, so every page names itself to a screen reader. */
export function pageFrame(main: HTMLElement, title: string, ...children: Child[]): void {
  document.title = `${title} · Fleet console`;
  main.replaceChildren(h('h1', {}, title));
  append(main, children);
}

/** A live region that says what is happening: loading, done, or what went wrong. */
export function statusLine(): {
  element: HTMLElement;
  loading(text?: string): void;
  error(error: unknown): void;
  done(text?: string): void;
} {
  const element = h('p', { role: 'status', class: 'status' });
  return {
    element,
    loading: (text = 'Loading…') => {
      element.className = 'status loading';
      element.textContent = text;
    },
    error: (error) => {
      element.className = 'status error';
      element.setAttribute('role', 'alert');
      element.textContent = `Error: ${error instanceof Error ? error.message : String(error)}`;
    },
    done: (text = '') => {
      element.className = 'status';
      element.setAttribute('role', 'status');
      element.textContent = text;
    },
  };
}

/** A labelled form field: the label names the control for assistive technology. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  control.id ||= `f-${Math.random().toString(36).slice(2, 9)}`;
  const hintElement = hint ? h('small', { id: `${control.id}-hint` }, hint) : null;
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement);
}

export function table(caption: string, headings: string[], rows: Child[][]): HTMLTableElement {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}

/** "Signing secret" → "signing secret" in a sentence; "OsmAnd URL" stays as it is. */
const inSentence = (label: string): string => label.replace(/^[A-Z][a-z]+(?=\s|$)/, (word) => word.toLowerCase());

/** A secret shown once: in a read-only field the person can select, with a copy button. */
export function shownOnce(label: string, value: string): HTMLElement {
  const input = h('input', { type: 'text', readonly: true, value, class: 'secret' });
  return h(
    'div',
    { class: 'once', role: 'region', 'aria-label': label },
    field(label, input, 'Shown only this once: copy it now.'),
    h('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(value) }, `Copy ${inSentence(label)}`),
  );
}

export function download(name: string, type: string, text: string): void {
  const link = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

/** A form's submit handler: the page stays, the work runs. */
export const submitted =
  (work: () => Promise<void> | void): EventListener =>
  (event) => {
    event.preventDefault();
    void work();
  };
