// The leaf formatting rules of `pqcodec cat --raw` (package rows, rows/json.go),
// written once for the two JavaScript renderers that predict its output:
// scripts/foreign/render.mjs (the foreign corpus's expected rows, from SQL
// casts) and scripts/difftest/render.mjs (the differential test's, from
// DuckDB's JS values). No dependencies, so both packages import it by path.

const HEX = '0123456789abcdef';

// jsonFloat formats v as Go's strconv.AppendFloat(v, 'g', -1, bits), with
// the strings of rows.AppendFloat for NaN and the infinities. Checked
// against Go on 400,000 float32 and float64 values.
export function jsonFloat(v, bits) {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const neg = v < 0;
  const a = Math.abs(v);
  let digits, exp;
  if (bits === 64) {
    // Number#toString is the shortest decimal that round-trips, the
    // closest one, ties to even: Go's choice too.
    [digits, exp] = decimalParts(String(a));
  } else {
    for (let p = 1; p <= 9; p++) {
      [digits, exp] = decimalParts(a.toExponential(p - 1));
      if (Math.fround(Number(digits[0] + '.' + digits.slice(1) + 'e' + exp)) === a) break;
    }
    // toExponential rounds a tie up; Go rounds it to even.
    const last = digits.charCodeAt(digits.length - 1) - 48;
    if (last % 2 === 1 && isTie(a, BigInt(digits), exp - digits.length + 1)) {
      const down = (BigInt(digits) - 1n).toString();
      if (down.length === digits.length) digits = down.replace(/0+$/, '');
    }
  }
  let out;
  if (exp < -4 || exp >= 6) {
    out = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'e' + (exp < 0 ? '-' : '+') +
      String(Math.abs(exp)).padStart(2, '0');
  } else if (exp >= 0) {
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    out = intPart + (frac ? '.' + frac : '');
  } else {
    out = '0.' + '0'.repeat(-exp - 1) + digits;
  }
  return (neg ? '-' : '') + out;
}

// decimalParts returns the significant digits of the decimal text s (no
// sign) and the exponent of its first digit.
function decimalParts(s) {
  const [mant, e = '0'] = s.split('e');
  const [ip, fp = ''] = mant.split('.');
  const exp = Number(e) + ip.length - 1;
  let digits = ip + fp;
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '') || '0';
  return [digits, exp - lead];
}

// isTie reports whether a is exactly (d - 1/2) * 10^q.
function isTie(a, d, q) {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, a);
  const hi = buf.getUint32(0), lo = buf.getUint32(4);
  const be = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2;
  if (be === 0) e2 = -1074;
  else { m |= 1n << 52n; e2 = be - 1075; }
  // 2a = (2d - 1) * 10^q, both sides scaled to integers.
  let lhs = 2n * m, rhs = 2n * d - 1n;
  if (e2 >= 0) lhs <<= BigInt(e2); else rhs <<= BigInt(-e2);
  if (q >= 0) rhs *= 10n ** BigInt(q); else lhs *= 10n ** BigInt(-q);
  return lhs === rhs;
}

// jsonString writes s as rows.AppendString does: '"', '\\', \n, \r, \t
// escaped, other control characters as \u00XX, a lone surrogate (not
// UTF-8) as \ufffd, everything else as is.
export function jsonString(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += '\\u00' + HEX[c >> 4] + HEX[c & 15];
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

// jsonHex writes bytes (a Uint8Array or Buffer) as a JSON string of their
// lowercase hex, as cat prints INT96 and non-text byte arrays.
export function jsonHex(bytes) {
  let s = '"';
  for (const b of bytes) s += HEX[b >> 4] + HEX[b & 15];
  return s + '"';
}

// jsonDecimal writes the unscaled decimal v (a BigInt) as the JSON hex
// string of its big-endian two's complement in len bytes, or in the fewest
// bytes that hold it when len is omitted (BYTE_ARRAY decimals).
export function jsonDecimal(v, len = minimalLen(v)) {
  return '"' + BigInt.asUintN(len * 8, v).toString(16).padStart(len * 2, '0') + '"';
}

// minimalLen returns the fewest bytes that hold v in two's complement.
function minimalLen(v) {
  let n = 1;
  while (BigInt.asIntN(n * 8, v) !== v) n++;
  return n;
}
