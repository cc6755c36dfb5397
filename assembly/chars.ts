// Character classification for UTF-16 text: what counts as a letter, space, terminal mark, etc.
// Ranges are a deliberate approximation of Unicode categories that covers the scripts we meet.

/** Code points the tokenizer names. */
export namespace Ch {
  export const TAB: u32 = 9;
  export const LF: u32 = 10;
  export const VT: u32 = 11;
  export const FF: u32 = 12;
  export const CR: u32 = 13;
  export const SPACE: u32 = 32;
  export const BANG: u32 = 33;
  export const DQUOTE: u32 = 34;
  export const HASH: u32 = 35;
  export const APOS: u32 = 39;
  export const LPAREN: u32 = 40;
  export const RPAREN: u32 = 41;
  export const STAR: u32 = 42;
  export const PLUS: u32 = 43;
  export const COMMA: u32 = 44;
  export const HYPHEN: u32 = 45;
  export const DOT: u32 = 46;
  export const D0: u32 = 48;
  export const D9: u32 = 57;
  export const COLON: u32 = 58;
  export const SEMI: u32 = 59;
  export const GT: u32 = 62;
  export const QMARK: u32 = 63;
  export const UA: u32 = 65;
  export const UZ: u32 = 90;
  export const LBRACKET: u32 = 91;
  export const RBRACKET: u32 = 93;
  export const UNDERSCORE: u32 = 95;
  export const BACKTICK: u32 = 96;
  export const LA: u32 = 97;
  export const LZ: u32 = 122;
  export const RBRACE: u32 = 125;
  export const PIPE: u32 = 124;
  export const TILDE: u32 = 126;
  export const NBSP: u32 = 0xa0;
  export const INV_EXCL: u32 = 0xa1;
  export const LAQUO: u32 = 0xab;
  export const SHY: u32 = 0xad;
  export const RAQUO: u32 = 0xbb;
  export const INV_QMARK: u32 = 0xbf;
  export const EN_DASH: u32 = 0x2013;
  export const EM_DASH: u32 = 0x2014;
  export const LSQUO: u32 = 0x2018;
  export const RSQUO: u32 = 0x2019;
  export const LDQUO: u32 = 0x201c;
  export const RDQUO: u32 = 0x201d;
  export const BULLET: u32 = 0x2022;
  export const ELLIPSIS: u32 = 0x2026;
  export const IDEO_STOP: u32 = 0x3002;
  export const FW_EXCL: u32 = 0xff01;
  export const FW_QMARK: u32 = 0xff1f;
}

/** Character classes returned by classify(). */
export namespace Cls {
  export const OTHER: u32 = 0;
  export const SPACE: u32 = 1;
  export const NEWLINE: u32 = 2;
  export const LETTER: u32 = 3;
  export const DIGIT: u32 = 4;
  export const CJK: u32 = 5;
  export const MARK: u32 = 6;
  export const INVISIBLE: u32 = 7;
  export const TERMINAL: u32 = 8;
  export const SYMBOL: u32 = 9;
  export const APOS: u32 = 10;
  export const HYPHEN: u32 = 11;
}

/** Classify one code point. */
export function classify(c: u32): u32 {
  if (c < 128) {
    if ((c | 32) >= Ch.LA && (c | 32) <= Ch.LZ) return Cls.LETTER;
    if (c >= Ch.D0 && c <= Ch.D9) return Cls.DIGIT;
    if (c == Ch.SPACE || c == Ch.TAB || c == Ch.VT || c == Ch.FF) return Cls.SPACE;
    if (c == Ch.LF || c == Ch.CR) return Cls.NEWLINE;
    if (c == Ch.DOT || c == Ch.BANG || c == Ch.QMARK) return Cls.TERMINAL;
    if (c == Ch.APOS) return Cls.APOS;
    if (c == Ch.HYPHEN) return Cls.HYPHEN;
    return Cls.OTHER;
  }
  if (c == Ch.NBSP || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x202f || c == 0x205f || c == 0x3000) return Cls.SPACE;
  if (c == 0x2028 || c == 0x2029 || c == 0x85) return Cls.NEWLINE;
  if (isInvisible(c)) return Cls.INVISIBLE;
  if (c == Ch.RSQUO) return Cls.APOS;
  if (c == 0x2010 || c == 0x2011) return Cls.HYPHEN;
  if (c == Ch.ELLIPSIS || c == Ch.IDEO_STOP || c == Ch.FW_EXCL || c == Ch.FW_QMARK || c == 0x203c || c == 0x2047) return Cls.TERMINAL;
  if (c == 0xaa || c == 0xb5 || c == 0xba) return Cls.LETTER;
  if (c >= 0xc0 && c <= 0x2af) return c == 0xd7 || c == 0xf7 ? Cls.OTHER : Cls.LETTER;
  if (c >= 0x300 && c <= 0x36f) return Cls.MARK;
  if (c >= 0x370 && c <= 0x3ff) return c == 0x37e || c == 0x387 ? Cls.OTHER : Cls.LETTER;
  if (c >= 0x400 && c <= 0x52f) return c >= 0x483 && c <= 0x489 ? Cls.MARK : Cls.LETTER;
  if (c >= 0x531 && c <= 0x58f) return Cls.LETTER;
  if (c >= 0x591 && c <= 0x5c7) return Cls.MARK;
  if (c >= 0x5d0 && c <= 0x5f2) return Cls.LETTER;
  if (c >= 0x620 && c <= 0x64a) return Cls.LETTER;
  if (c >= 0x64b && c <= 0x65f) return Cls.MARK;
  if (c >= 0x660 && c <= 0x669) return Cls.DIGIT;
  if (c >= 0x671 && c <= 0x6d3) return Cls.LETTER;
  if (c >= 0x900 && c <= 0xdff) return Cls.LETTER; // Indic scripts, marks included
  if (c >= 0xe00 && c <= 0xeff) return Cls.LETTER; // Thai, Lao
  if (c >= 0x10a0 && c <= 0x10ff) return Cls.LETTER;
  if (c >= 0x1100 && c <= 0x11ff) return Cls.LETTER;
  if (c >= 0x1e00 && c <= 0x1fff) return Cls.LETTER;
  if (c >= 0x20d0 && c <= 0x20ff) return Cls.MARK;
  if (c >= 0x3040 && c <= 0x30ff) return Cls.CJK;
  if (c >= 0x3400 && c <= 0x4dbf) return Cls.CJK;
  if (c >= 0x4e00 && c <= 0x9fff) return Cls.CJK;
  if (c >= 0xac00 && c <= 0xd7a3) return Cls.LETTER;
  if (c >= 0xf900 && c <= 0xfaff) return Cls.CJK;
  if (c >= 0xfe00 && c <= 0xfe0f) return Cls.MARK; // variation selectors ride on the previous char
  if (c >= 0xff10 && c <= 0xff19) return Cls.DIGIT;
  if ((c >= 0xff21 && c <= 0xff3a) || (c >= 0xff41 && c <= 0xff5a)) return Cls.LETTER;
  if (c >= 0x20000 && c <= 0x3ffff) return Cls.CJK;
  if (c >= 0x1f000 && c <= 0x1faff) return Cls.SYMBOL; // emoji and pictographs
  if (c >= 0x2600 && c <= 0x27bf) return Cls.SYMBOL;
  if (c >= 0x1f3fb && c <= 0x1f3ff) return Cls.MARK; // skin tone modifiers
  if (c >= 0xe0000 && c <= 0xe007f) return Cls.INVISIBLE; // tag characters
  return Cls.OTHER;
}

/** Zero-width and other invisible format characters used to dodge detectors. */
@inline export function isInvisible(c: u32): bool {
  return (c >= 0x200b && c <= 0x200f) || (c >= 0x2060 && c <= 0x2064) || c == 0xfeff || c == Ch.SHY ||
    c == 0x180e || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x34f ||
    (c >= 0xe0000 && c <= 0xe007f);
}

/** Cyrillic and Greek letters that look like Latin ones, mapped to the Latin letter (0 = none). */
export function homoglyph(c: u32): u32 {
  if (c >= 0x400 && c <= 0x4ff) {
    switch (c) {
      case 0x430: return 97; case 0x435: return 101; case 0x43e: return 111; case 0x440: return 112;
      case 0x441: return 99; case 0x443: return 121; case 0x445: return 120; case 0x456: return 105;
      case 0x458: return 106; case 0x455: return 115; case 0x4bb: return 104; case 0x501: return 100;
      case 0x410: return 65; case 0x412: return 66; case 0x415: return 69; case 0x41a: return 75;
      case 0x41c: return 77; case 0x41d: return 72; case 0x41e: return 79; case 0x420: return 80;
      case 0x421: return 67; case 0x422: return 84; case 0x425: return 88; case 0x406: return 73;
      case 0x408: return 74; case 0x405: return 83; case 0x4c0: return 73;
    }
    return 0;
  }
  if (c >= 0x391 && c <= 0x3c9) {
    switch (c) {
      case 0x391: return 65; case 0x392: return 66; case 0x395: return 69; case 0x396: return 90;
      case 0x397: return 72; case 0x399: return 73; case 0x39a: return 75; case 0x39c: return 77;
      case 0x39d: return 78; case 0x39f: return 79; case 0x3a1: return 80; case 0x3a4: return 84;
      case 0x3a5: return 89; case 0x3a7: return 88; case 0x3bf: return 111; case 0x3bd: return 118;
      case 0x3b9: return 105; case 0x3ba: return 107; case 0x3c1: return 112; case 0x3b1: return 97;
    }
  }
  return 0;
}

/** Lower-case a letter (Latin, Latin-1, Latin Extended-A, Greek, Cyrillic, fullwidth). */
export function lower(c: u32): u32 {
  if (c < 128) return c >= Ch.UA && c <= Ch.UZ ? c + 32 : c;
  if (c >= 0xc0 && c <= 0xde && c != 0xd7) return c + 32;
  if (c >= 0x100 && c <= 0x17f) {
    if (c == 0x130) return 105;
    if (c == 0x178) return 0xff;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) return (c & 1) == 1 ? c + 1 : c;
    return (c & 1) == 0 && c != 0x138 ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3a9) return c + 32;
  if (c >= 0x410 && c <= 0x42f) return c + 32;
  if (c >= 0x400 && c <= 0x40f) return c + 80;
  if (c >= 0xff21 && c <= 0xff3a) return c - 0xff21 + 97;
  if (c >= 0xff41 && c <= 0xff5a) return c - 0xff41 + 97;
  return c;
}

/** Upper-case letters (for the capitalised-word signal). */
export function isUpper(c: u32): bool {
  if (c < 128) return c >= Ch.UA && c <= Ch.UZ;
  return lower(c) != c;
}

/** Strip the accent from common Spanish/Latin-1 vowels so "más"/"mas" share a suffix shape. */
export function baseLetter(c: u32): u32 {
  if (c < 0xe0 || c > 0xfc) return c;
  if (c >= 0xe0 && c <= 0xe5) return 97;
  if (c >= 0xe8 && c <= 0xeb) return 101;
  if (c >= 0xec && c <= 0xef) return 105;
  if (c >= 0xf2 && c <= 0xf6) return 111;
  if (c >= 0xf9 && c <= 0xfc) return 117;
  return c;
}
