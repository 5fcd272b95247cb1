/**
 * Nicknames that cannot pass for another: `nameKey` is a confusables skeleton (two names with one key look
 * alike), `isWholeScriptLookalike` catches another script posing as Latin (docs/server.md, "Lookalike names").
 */

const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'l',
  ї: 'l',
  ј: 'j',
  ӏ: 'l',
  Ӏ: 'l',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  ɡ: 'g',
  ԍ: 'g',
  ь: 'b',
  ҍ: 'b',
  ӽ: 'x',
  ԑ: 'e',
  ѵ: 'v',
  ɩ: 'l',
  Ꙅ: 's',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'l',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ϲ: 'c',
  ϳ: 'j',
  ζ: 'z',
  η: 'n',
  μ: 'u',
  ω: 'w',
  // Cherokee capitals (Ꭺdmin)
  Ꭺ: 'a',
  Ᏼ: 'b',
  Ꮯ: 'c',
  Ꭰ: 'd',
  Ꭼ: 'e',
  Ꮐ: 'g',
  Ꮋ: 'h',
  Ꮖ: 'l',
  Ꭻ: 'j',
  Ꮶ: 'k',
  Ꮮ: 'l',
  Ꮇ: 'm',
  Ꮑ: 'n',
  Ꮎ: 'o',
  Ꮲ: 'p',
  Ꮤ: 'w',
  Ꮢ: 'r',
  Ꮪ: 's',
  Ꭲ: 't',
  Ꮩ: 'v',
  Ꮃ: 'w',
  Ꮓ: 'z',
  Ꭹ: 'y',
  Ꮍ: 'y',
  // Capitals unlike their small letters' prototypes
  Ν: 'n',
  Η: 'h',
  Μ: 'm',
  Ι: 'l',
  Υ: 'y',
  Β: 'b',
  І: 'l',
  Ј: 'j',
  // Latin and digits among themselves
  I: 'l',
  i: 'l',
  '1': 'l',
  '|': 'l',
  '0': 'o',
  ı: 'l',
  ȷ: 'j',
};

/** Names no player may take (compared by key, so lookalikes are refused too). */
export const RESERVED_NAMES = [
  'admin', 'administrator', 'moderator', 'mod', 'root', 'system', 'staff', 'support', 'official',
  'server', 'mahjong', 'anonymous', 'anonymous player', 'player', 'you', 'null', 'undefined', 'nobody',
  'owner', 'webmaster', 'security', 'help',
] as const; // prettier-ignore

export function nameKey(name: string): string {
  let out = '';
  for (const ch of name.normalize('NFKD')) {
    if (/\p{M}/u.test(ch) || /[\s_.-]/u.test(ch)) continue;
    const lower = ch.toLowerCase();
    out += LOOKALIKES[ch] ?? LOOKALIKES[lower] ?? lower;
  }
  return out.replace(/rn/g, 'm').replace(/vv/g, 'w');
}

const RESERVED_KEYS: ReadonlySet<string> = new Set(RESERVED_NAMES.map(nameKey));

export const isReservedName = (name: string): boolean => RESERVED_KEYS.has(nameKey(name));

/** Letters outside ASCII whose key is plain ASCII: another script posing as a Latin name. */
export const isWholeScriptLookalike = (name: string): boolean =>
  /[^\p{ASCII}]/u.test(name.normalize('NFKD').replace(/\p{M}/gu, '')) && /^[a-z0-9]+$/.test(nameKey(name));
