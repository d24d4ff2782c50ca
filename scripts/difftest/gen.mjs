// Random schemas and values for the differential test. Everything is drawn
// from a seeded generator, so a (seed, writer, case) triple names one file.

// rng returns a small deterministic generator (splitmix64 over BigInt-free
// 32-bit halves: mulberry32 seeded from the hash of its key).
export function rng(...key) {
  let h = 2166136261 >>> 0;
  for (const ch of key.join('/')) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 16777619) >>> 0;
  }
  let a = h;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // inclusive
    bool: (p = 0.5) => next() < p,
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    // weighted pick: [[weight, value], ...]
    wpick: (pairs) => {
      let total = 0;
      for (const [w] of pairs) total += w;
      let x = next() * total;
      for (const [w, v] of pairs) {
        if ((x -= w) < 0) return v;
      }
      return pairs[pairs.length - 1][1];
    },
    bigint: (bits) => {
      // uniform signed integer of the given width
      let v = 0n;
      for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(Math.floor(next() * 65536));
      return BigInt.asIntN(bits, v);
    },
  };
  return r;
}

// Leaf kinds and their integer ranges.
export const INT_RANGE = {
  int8: [-128n, 127n], int16: [-32768n, 32767n], int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 255n], uint16: [0n, 65535n], uint32: [0n, 2n ** 32n - 1n], uint64: [0n, 2n ** 64n - 1n],
};
const BITS = { int8: 8, int16: 16, int32: 32, int64: 64, uint8: 8, uint16: 16, uint32: 32, uint64: 64 };

// randomType draws a type from the kinds a writer supports (caps).
// A type is {kind, nullable, ...}: leaf kinds bool, int8..uint64, float,
// double, string, binary, fixed (len), decimal (precision, scale), date,
// ts (unit), uuid; nested kinds list (elem), struct (fields), map (key,
// value).
export function randomType(r, caps, depth = 0) {
  const nested = depth < 2 ? caps.nested : [];
  const kinds = [...caps.leaves.map((k) => [3, k]), ...nested.map((k) => [depth === 0 ? 2 : 1, k])];
  const kind = r.wpick(kinds);
  const t = { kind, nullable: caps.required === false ? true : r.bool(0.7) };
  switch (kind) {
    case 'fixed': t.len = r.pick([1, 3, 12, 16, 33]); break;
    case 'decimal': {
      t.precision = r.pick(caps.decimalPrecisions || [4, 9, 10, 18, 19, 38]);
      t.scale = r.int(0, Math.min(t.precision, 6));
      break;
    }
    case 'ts': t.unit = r.pick(caps.tsUnits || ['ms', 'us', 'ns']); break;
    case 'list': t.elem = randomType(r, caps, depth + 1); break;
    case 'struct': {
      const n = r.int(1, 3);
      t.fields = [];
      for (let i = 0; i < n; i++) t.fields.push({ name: `f${i}`, type: randomType(r, caps, depth + 1) });
      break;
    }
    case 'map': {
      t.key = { kind: r.pick(caps.mapKeys || ['string', 'int32']), nullable: false };
      t.value = randomType(r, caps, depth + 1);
      break;
    }
  }
  return t;
}

export function typeString(t) {
  const n = t.nullable ? '?' : '';
  switch (t.kind) {
    case 'fixed': return `fixed(${t.len})${n}`;
    case 'decimal': return `decimal(${t.precision},${t.scale})${n}`;
    case 'ts': return `ts(${t.unit})${n}`;
    case 'list': return `list<${typeString(t.elem)}>${n}`;
    case 'struct': return `struct<${t.fields.map((f) => `${f.name}:${typeString(f.type)}`).join(',')}>${n}`;
    case 'map': return `map<${typeString(t.key)},${typeString(t.value)}>${n}`;
    default: return t.kind + n;
  }
}

const UNICODE = ['é', 'ß', '中文', '🎉', 'Ω', '\u0001', '"', '\\', '\n', '\t', 'ü', 'ж', '\u007f', 'a', 'b', ' ', '<', '€'];

// A leaf generator draws values of one leaf kind with one distribution.
function leafGen(r, t) {
  const dist = r.wpick([[3, 'random'], [2, 'runs'], [2, 'lowcard'], [1, 'extremes'], [1, 'alternating'], [1, 'sorted'], [1, 'const']]);
  const fresh = freshGen(r, t, dist);
  if (dist === 'lowcard' || dist === 'const') {
    const pool = [];
    const k = dist === 'const' ? 1 : r.int(2, 20);
    for (let i = 0; i < k; i++) pool.push(fresh());
    return () => r.pick(pool);
  }
  if (dist === 'runs') {
    let cur, left = 0;
    return () => {
      if (left <= 0) { cur = fresh(); left = r.wpick([[3, r.int(1, 10)], [2, r.int(10, 100)], [1, r.int(100, 2000)]]); }
      left--;
      return cur;
    };
  }
  return fresh;
}

function freshGen(r, t, dist) {
  switch (t.kind) {
    case 'bool': {
      const p = r.pick([0.5, 0.05, 0.95]);
      return () => r.bool(p);
    }
    case 'int8': case 'int16': case 'int32': case 'int64':
    case 'uint8': case 'uint16': case 'uint32': case 'uint64': {
      const [lo, hi] = INT_RANGE[t.kind];
      const bits = BITS[t.kind];
      const unsigned = t.kind.startsWith('u');
      const big = bits === 64;
      const out = big ? (v) => v : (v) => Number(v);
      const clamp = (v) => (v < lo ? lo : v > hi ? hi : v);
      if (dist === 'extremes') {
        const vals = [lo, hi, 0n, 1n, hi - 1n, lo + 1n, unsigned ? 2n : -1n].map(clamp);
        return () => out(r.pick(vals));
      }
      if (dist === 'alternating') {
        let i = 0;
        return () => out(i++ % 2 ? hi : lo);
      }
      if (dist === 'sorted') {
        let v = clamp(unsigned ? BigInt(r.int(0, 100)) : BigInt(r.int(-1000, 1000)));
        const step = r.pick([0, 1, 3, 1000]);
        return () => {
          const s = BigInt(r.int(0, step));
          if (v + s <= hi) v += s;
          return out(v);
        };
      }
      const small = r.bool(0.5);
      return () => {
        let v = small ? BigInt(r.int(-100, 100)) : r.bigint(bits);
        if (unsigned) v = BigInt.asUintN(bits, v);
        return out(clamp(v));
      };
    }
    case 'float': case 'double': {
      const f32 = t.kind === 'float';
      const round = f32 ? Math.fround : (x) => x;
      const specials = [NaN, Infinity, -Infinity, -0, 0, f32 ? 1.401298464324817e-45 : 5e-324, f32 ? 3.4028234663852886e38 : Number.MAX_VALUE,
        f32 ? -3.4028234663852886e38 : -Number.MAX_VALUE, f32 ? 1.1754942106924411e-38 : 2.2250738585072014e-308, 1e21, 1e-7, 123456789];
      if (dist === 'extremes' || dist === 'alternating') return () => round(r.pick(specials));
      if (dist === 'sorted') { let v = r.int(-100, 100); return () => round(v += r.next()); }
      const mode = r.pick(['unit', 'wide', 'ints', 'mixed']);
      return () => {
        switch (mode) {
          case 'unit': return round(r.next() * 2 - 1);
          case 'ints': return r.int(-1000, 1000);
          case 'wide': return round((r.next() - 0.5) * 10 ** r.int(-40, 38));
          default: return r.bool(0.2) ? round(r.pick(specials)) : round((r.next() - 0.5) * 10 ** r.int(-5, 12));
        }
      };
    }
    case 'string': case 'binary': {
      const mode = dist === 'extremes' ? 'mixed' : r.pick(['ascii', 'unicode', 'mixed', 'short']);
      const strOf = () => {
        const kind = mode === 'mixed' ? r.wpick([[4, 'ascii'], [3, 'unicode'], [1, 'empty'], [1, 'long']]) : mode;
        switch (kind) {
          case 'empty': return '';
          case 'short': return String.fromCharCode(97 + r.int(0, 25)).repeat(r.int(0, 2));
          case 'long': {
            const n = r.int(1025, 3000);
            let s = '';
            while (s.length < n) s += r.bool(0.9) ? String.fromCharCode(32 + r.int(0, 94)) : r.pick(UNICODE);
            return s;
          }
          case 'unicode': {
            const n = r.int(0, 12);
            let s = '';
            for (let i = 0; i < n; i++) s += r.pick(UNICODE);
            return s;
          }
          default: {
            const n = r.int(0, 20);
            let s = '';
            for (let i = 0; i < n; i++) s += String.fromCharCode(32 + r.int(0, 94));
            return s;
          }
        }
      };
      if (t.kind === 'string') {
        if (dist === 'sorted') { let i = r.int(0, 1000); return () => `k${String(i++).padStart(8, '0')}`; }
        return strOf;
      }
      return () => {
        if (r.bool(0.5)) return Buffer.from(strOf(), 'utf8');
        const b = Buffer.alloc(r.int(0, 40));
        for (let i = 0; i < b.length; i++) b[i] = r.int(0, 255);
        return b;
      };
    }
    case 'fixed': case 'uuid': {
      const len = t.kind === 'uuid' ? 16 : t.len;
      return () => {
        const b = Buffer.alloc(len);
        for (let i = 0; i < len; i++) b[i] = r.int(0, 255);
        return b;
      };
    }
    case 'decimal': {
      const max = 10n ** BigInt(t.precision) - 1n;
      if (dist === 'extremes' || dist === 'alternating') {
        let i = 0;
        return () => [max, -max, 0n, 1n, -1n][dist === 'alternating' ? i++ % 2 : r.int(0, 4)];
      }
      return () => {
        const digits = r.int(1, t.precision);
        let v = 0n;
        for (let i = 0; i < digits; i++) v = v * 10n + BigInt(r.int(0, 9));
        return r.bool(0.5) ? -v : v;
      };
    }
    case 'date': {
      if (dist === 'extremes') return () => r.pick([0, -1, 1, -719162, 2932896, 19000]);
      return () => r.int(-30000, 60000);
    }
    case 'ts': {
      const scale = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n }[t.unit];
      if (dist === 'extremes') return () => r.pick([0n, -1n, 1n, 253402300799n * scale, -62135596800n * scale].map((v) => (t.unit === 'ns' && (v > 9223372036854775807n || v < -9223372036854775807n) ? 0n : v)));
      return () => BigInt(r.int(-2000000000, 4000000000)) * scale + (scale > 1n ? BigInt(r.int(0, Number(scale) - 1)) : 0n);
    }
  }
  throw new Error(`no generator for ${t.kind}`);
}

// valueGen returns a function drawing one value (or null) of type t.
export function valueGen(r, t) {
  const nullP = !t.nullable ? 0 : r.wpick([[3, 0], [4, 0.1], [2, 0.5], [1, 1]]);
  let inner;
  switch (t.kind) {
    case 'list': {
      const elem = valueGen(r, t.elem);
      const maxLen = r.wpick([[3, 4], [1, 0], [1, 1], [1, 40]]);
      const emptyP = r.pick([0, 0.1, 0.5]);
      inner = () => {
        if (r.bool(emptyP)) return [];
        const n = r.int(0, maxLen);
        const out = [];
        for (let i = 0; i < n; i++) out.push(elem());
        return out;
      };
      break;
    }
    case 'struct': {
      const gens = t.fields.map((f) => [f.name, valueGen(r, f.type)]);
      inner = () => Object.fromEntries(gens.map(([n, g]) => [n, g()]));
      break;
    }
    case 'map': {
      const key = leafGen(r, t.key);
      const val = valueGen(r, t.value);
      const maxLen = r.pick([0, 3, 10]);
      inner = () => {
        const n = r.int(0, maxLen);
        const seen = new Set();
        const out = [];
        for (let i = 0; i < n; i++) {
          const k = key();
          const sk = typeof k === 'object' ? Buffer.from(k).toString('hex') : String(k);
          if (seen.has(sk)) continue;
          seen.add(sk);
          out.push([k, val()]);
        }
        return out;
      };
      break;
    }
    default:
      inner = leafGen(r, t);
  }
  if (nullP === 0) return inner;
  if (nullP === 1) return () => null;
  const runs = r.bool(0.3);
  let state = false, left = 0;
  return () => {
    if (runs) {
      if (left <= 0) { state = r.bool(nullP); left = r.int(1, 200); }
      left--;
      return state ? null : inner();
    }
    return r.bool(nullP) ? null : inner();
  };
}

// randomTable draws a schema and its columns: {columns: [{name, type}], data: [[...values]], rows}.
export function randomTable(r, caps) {
  const ncol = r.int(1, 6);
  const columns = [];
  for (let i = 0; i < ncol; i++) columns.push({ name: `c${i}`, type: randomType(r, caps) });
  const rows = r.wpick([[1, 0], [1, 1], [3, r.int(2, 100)], [4, r.int(100, 3000)], [1, r.int(3000, 12000)]]);
  const data = columns.map((c) => {
    const g = valueGen(r, c.type);
    const vals = new Array(rows);
    for (let i = 0; i < rows; i++) vals[i] = g();
    return vals;
  });
  return { columns, data, rows };
}
