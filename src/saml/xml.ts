/*
 * A small, strict XML reader for what Gatehouse reads of SAML documents outside the signature
 * check (IdP metadata, a response's root attributes). It refuses every markup declaration
 * (`<!DOCTYPE`, `<!ENTITY`: XML bombs and external entities) before reading anything, knows only
 * the five predefined entities and character references, and caps size, depth and node count.
 */

export interface XmlElement {
  /** the qualified name as written (`md:EntityDescriptor`) */
  name: string;
  /** the name without its prefix */
  local: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** the element's own text (comments removed, CDATA kept) */
  text: string;
}

export class XmlRefused extends Error {}

const MAX_CHARS = 1024 * 1024;
const MAX_DEPTH = 64;
const MAX_ELEMENTS = 20_000;

/** Refuses a document type declaration or entity declaration anywhere (before any parser sees it). */
export function refuseDeclarations(xml: string): void {
  if (/<!DOCTYPE|<!ENTITY|<!ELEMENT|<!ATTLIST|<!NOTATION/i.test(xml)) throw new XmlRefused('the document holds a DTD or an entity declaration');
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const known = ENTITIES[ref];
    if (known === undefined) throw new XmlRefused(`unknown entity ${whole}`);
    return known;
  });
}

const localOf = (name: string) => name.slice(name.indexOf(':') + 1);
const NAME = /^[A-Za-z_][\w.:-]*/;
const ATTR = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/;

/** Parses `xml` into its root element; throws `XmlRefused` for anything it does not accept. */
export function parseXml(xml: string): XmlElement {
  if (xml.length > MAX_CHARS) throw new XmlRefused('the document is too large');
  refuseDeclarations(xml);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const text = xml.slice(at, lt < 0 ? xml.length : lt);
    if (text.length > 0) {
      if (stack.length > 0) stack[stack.length - 1].text += decode(text);
      else if (text.trim() !== '') throw new XmlRefused('text outside the root element');
    }
    if (lt < 0) break;
    const rest = xml.slice(lt, lt + 9);
    if (rest.startsWith('<!--')) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) throw new XmlRefused('an unclosed comment');
      at = end + 3;
    } else if (rest.startsWith('<![CDATA[')) {
      const end = xml.indexOf(']]>', lt);
      if (end < 0 || stack.length === 0) throw new XmlRefused('a misplaced CDATA section');
      stack[stack.length - 1].text += xml.slice(lt + 9, end);
      at = end + 3;
    } else if (rest.startsWith('<?')) {
      const end = xml.indexOf('?>', lt);
      if (end < 0) throw new XmlRefused('an unclosed processing instruction');
      at = end + 2;
    } else if (rest.startsWith('</')) {
      const end = xml.indexOf('>', lt);
      const name = xml.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (end < 0 || open?.name !== name) throw new XmlRefused(`a mismatched end tag ${name}`);
      at = end + 1;
    } else if (rest.startsWith('<!')) {
      throw new XmlRefused('a markup declaration');
    } else {
      const name = NAME.exec(xml.slice(lt + 1, lt + 257))?.[0];
      if (name === undefined) throw new XmlRefused('a malformed start tag');
      let cursor = lt + 1 + name.length;
      const attrs: Record<string, string> = {};
      for (;;) {
        const match = ATTR.exec(xml.slice(cursor, cursor + 65_536));
        if (!match) break;
        if (Object.hasOwn(attrs, match[1])) throw new XmlRefused(`a repeated attribute ${match[1]}`);
        attrs[match[1]] = decode(match[3] ?? match[4]);
        cursor += match[0].length;
      }
      const close = /^\s*(\/?)>/.exec(xml.slice(cursor, cursor + 256));
      if (!close) throw new XmlRefused(`a malformed start tag ${name}`);
      const element: XmlElement = { name, local: localOf(name), attrs, children: [], text: '' };
      if (++count > MAX_ELEMENTS) throw new XmlRefused('too many elements');
      if (stack.length > 0) stack[stack.length - 1].children.push(element);
      else if (root) throw new XmlRefused('a second root element');
      else root = element;
      if (close[1] !== '/') {
        stack.push(element);
        if (stack.length > MAX_DEPTH) throw new XmlRefused('the document is nested too deeply');
      }
      at = cursor + close[0].length;
    }
  }
  if (!root || stack.length > 0) throw new XmlRefused('the document is incomplete');
  return root;
}

/** The children of `element` with local name `local`. */
export const childrenNamed = (element: XmlElement, local: string): XmlElement[] => element.children.filter((child) => child.local === local);

/** Every descendant of `element` with local name `local`, in document order. */
export function descendantsNamed(element: XmlElement, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement) => {
    for (const child of node.children) {
      if (child.local === local) found.push(child);
      walk(child);
    }
  };
  walk(element);
  return found;
}
