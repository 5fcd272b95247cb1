/**
 * XML read with saxes for the file formats: start tags, end tags and text with their lines; comments and
 * declarations dropped. What it adds to saxes: docs/cli.md, "The markup reader".
 */
import { SaxesParser, type SaxesTag } from 'saxes';

/** A start tag, or a self-closing tag (then `end` follows at once). */
export interface StartTag {
  readonly name: string; // as written
  readonly attrs: ReadonlyMap<string, string>; // lower-cased name → decoded value
  readonly line: number; // of its `<`
}

export interface MarkupHandlers {
  start(tag: StartTag): void;
  end(name: string, line: number): void; // the end tag matched its start tag
  text(text: string, line: number): void; // decoded, not blank; its first non-blank line
}

/** A syntax error: one line, without the line number. */
export class MarkupError {
  constructor(
    readonly line: number,
    readonly message: string,
  ) {}
}

/** JSON-quoted, cut at 40 characters. */
export const quote = (s: string): string => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

const BLANKS = /[ \t\r\n]*/y;
const ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const KNOWN_ENTITIES = '(known: &amp; &lt; &gt; &quot; &apos; and &#N;)';

const isXmlChar = (c: number): boolean =>
  c === 0x9 ||
  c === 0xa ||
  c === 0xd ||
  (c >= 0x20 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd) ||
  (c >= 0x10000 && c <= 0x10ffff);

function isGoodReference(body: string): boolean {
  if (ENTITIES.has(body)) return true;
  const ref = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
  return ref !== null && isXmlChar(parseInt(ref[1] ?? ref[2]!, ref[1] ? 16 : 10));
}

/** Reads `text`, calling `handlers` in file order; throws MarkupError on bad markup. */
export function readMarkup(text: string, handlers: MarkupHandlers): void {
  const parser = new SaxesParser({ position: true });
  const open: { readonly name: string; readonly line: number }[] = []; // elements not yet closed
  let done = 0; // just past the last complete markup
  let counted = 0; // offset up to which newlines are counted
  let countedLine = 1; // the line at `counted`

  /** The line of an offset; cheap while offsets grow. */
  const lineAt = (at: number): number => {
    if (at < counted) [counted, countedLine] = [0, 1];
    for (let i = text.indexOf('\n', counted); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) countedLine++;
    counted = at;
    return countedLine;
  };
  const fail = (at: number, message: string): never => {
    throw new MarkupError(lineAt(at), message);
  };
  const pending = (): number => text.indexOf('<', done); // where the markup being read starts, or -1
  const tagName = (at: number): string => /^<\/?([^\s/>"'=<!?&]*)/.exec(text.slice(at, at + 200))![1]!;
  const found = (at: number): string => quote(text.slice(at, at + 10));

  /** Throws for the first bad entity reference before `end`. */
  const checkReferences = (end: number): void => {
    const refs = /&([^;&\s<]*)(;?)/g;
    refs.lastIndex = done;
    for (let m = refs.exec(text); m && m.index < end; m = refs.exec(text)) {
      const [, body, semicolon] = m;
      if (semicolon && isGoodReference(body!)) continue;
      if (semicolon) fail(m.index, `unknown entity &${body}; ${KNOWN_ENTITIES}`);
      const tag = pending();
      const value = tag >= 0 && tag < m.index ? /=\s*(["'])((?:(?!\1)[^])*)$/.exec(text.slice(tag, m.index)) : null;
      if (!value) return fail(m.index, 'a bare & in text; write it as &amp;');
      const rest = text.indexOf(value[1]!, m.index);
      fail(
        m.index,
        `a bare & in ${quote(value[2]! + text.slice(m.index, rest < 0 ? undefined : rest))}; write it as &amp;`,
      );
    }
  };

  /** Throws for markup the end of the text cut short. */
  const checkUnfinished = (): void => {
    const at = pending();
    if (at < 0) return;
    checkReferences(text.length);
    const never = (what: string, close: string): never =>
      fail(at, `${what} starting here is never closed with ${close}`);
    if (text.startsWith('<!--', at)) never('the comment', '-->');
    if (text.startsWith('<![CDATA[', at)) never('the CDATA section', ']]>');
    if (text.startsWith('<?', at)) never('the processing instruction', '?>');
    if (text.startsWith('<!', at)) never('the declaration', '>');
    if (text.startsWith('</', at)) fail(at, `expected > to end </${tagName(at)}`);
    fail(at, `the tag <${tagName(at)}> is never closed with >`);
  };

  /** Throws for a character that cannot come next in a tag. */
  const badInTag = (tag: number, at: number, name: string): never => {
    if (text[at] === '<') fail(tag, `the tag <${name}> is never closed with >`);
    const attr = /\s([^\s=<>"'/]+)\s*$/.exec(text.slice(tag, at))?.[1];
    if (attr && text[at] !== '=') fail(at, `expected = after the attribute ${attr} in <${name}>`);
    return fail(at, `expected a space, > or /> in <${name}>, found ${found(at)}`);
  };

  /** A saxes error as a MarkupError, or nothing where GMarkup is lenient. */
  const onError = (error: Error): void => {
    const reason = error.message.replace(/^\d+:\d+: /, '');
    const at = Math.max(parser.position - 1, 0); // the character saxes stopped at
    const tag = pending();
    const inTag = tag >= 0 && tag < at;
    const name = inTag ? tagName(tag) : '';
    switch (reason) {
      case 'text data outside of root node.':
      case 'documents may contain only one root.':
      case 'document must contain a root element.': // the caller says what it missed
        return;
      case 'unexpected end.':
        checkUnfinished();
        break;
      case 'undefined entity.':
      case 'malformed character entity.':
      case 'disallowed character in entity name.':
      case 'empty entity name.':
        checkReferences(at + 1);
        break;
      case 'unquoted attribute value.': {
        const attr = /([^\s=]+)\s*=\s*$/.exec(text.slice(tag, at))?.[1] ?? '';
        fail(at, `the value of ${attr} in <${name}> must be in quotes`);
        break;
      }
      case 'disallowed character.':
        if (inTag && text[at] === '<') {
          const attr = /([^\s=]+)\s*=\s*(["'])(?:(?!\2)[^])*$/.exec(text.slice(tag, at))?.[1] ?? '';
          fail(at, `the value of ${attr} in <${name}> contains <; write it as &lt;`);
        }
        fail(
          at,
          `a character XML does not allow: U+${text.codePointAt(at)!.toString(16).toUpperCase().padStart(4, '0')}`,
        );
        break;
      case 'disallowed character in tag name':
      case 'disallowed character in tag name.':
        if (name === '') fail(at, `expected an element name after <, found ${found(at)}`);
        badInTag(tag, at, name);
        break;
      case 'disallowed character in attribute name.':
      case 'no whitespace between attributes.':
      case 'forward-slash in opening tag not followed by >.':
      case 'attribute without value.':
        badInTag(tag, at, name);
        break;
      case 'incorrect syntax.':
        fail(tag, `expected <!--, <![CDATA[ or <!DOCTYPE, found ${found(tag)}`);
        break;
      case 'weird empty close tag.':
        fail(at, 'expected an element name after </');
        break;
      case 'disallowed character in closing tag.':
        fail(at, `expected > to end </${name}, found ${found(at)}`);
        break;
      case 'malformed comment.':
        fail(at, 'a comment may not contain -- (XML does not allow it)');
        break;
    }
    if (reason.startsWith('unclosed tag: ')) {
      checkUnfinished();
      const innermost = open.at(-1)!;
      throw new MarkupError(innermost.line, `<${innermost.name}> is never closed`);
    }
    if (reason.startsWith('duplicate attribute: '))
      fail(at, `the attribute ${reason.slice(21, -1)} appears twice in <${name}>`);
    if (reason.startsWith('unmatched closing tag: ') || reason === 'unexpected close tag.') {
      const start = text.lastIndexOf('</', at);
      const written = tagName(start);
      const innermost = open.at(-1);
      if (!innermost) return fail(start, `</${written}> closes nothing`);
      fail(start, `</${written}> does not match <${innermost.name}> opened on line ${innermost.line}`);
    }
    if (text.startsWith('<?xml', tag)) fail(tag, `a malformed XML declaration <?xml …?>: ${reason.replace(/\.$/, '')}`);
    fail(at, `not well-formed XML: ${reason.replace(/\.$/, '')}`);
  };

  const markupDone = (): void => {
    done = parser.position;
  };
  parser.on('error', onError);
  parser.on('xmldecl', markupDone);
  parser.on('doctype', markupDone);
  parser.on('processinginstruction', markupDone);
  parser.on('comment', markupDone);
  parser.on('opentag', (node: SaxesTag) => {
    const start = pending();
    const line = lineAt(start);
    const attrs = new Map<string, string>();
    for (const [attr, value] of Object.entries(node.attributes as Record<string, string>)) {
      const key = attr.toLowerCase();
      if (attrs.has(key)) fail(start, `the attribute ${attr} appears twice in <${node.name}>`);
      attrs.set(key, value);
    }
    markupDone();
    if (!node.isSelfClosing) open.push({ name: node.name, line });
    handlers.start({ name: node.name, attrs, line });
  });
  parser.on('closetag', (node: SaxesTag) => {
    if (node.isSelfClosing) return handlers.end(node.name, lineAt(done));
    // saxes closes elements left open inside a misplaced end tag first; we stop.
    const start = text.lastIndexOf('</', parser.position - 1);
    const written = tagName(start);
    const innermost = open.pop();
    if (!innermost) return fail(start, `</${written}> closes nothing`);
    if (written !== innermost.name)
      fail(start, `</${written}> does not match <${innermost.name}> opened on line ${innermost.line}`);
    const line = lineAt(start);
    markupDone();
    handlers.end(node.name, line);
  });
  const onText = (chunk: string, start: number): void => {
    if (chunk.trim() === '') return;
    BLANKS.lastIndex = start;
    BLANKS.exec(text);
    handlers.text(chunk, lineAt(BLANKS.lastIndex));
  };
  parser.on('text', (chunk) => onText(chunk, done));
  parser.on('cdata', (chunk) => {
    onText(chunk, pending() + 9);
    markupDone();
  });
  parser.write(text).close();
}
